import { jsonResponse, type ServiceResponse } from './service-handler.js';

/** An SMS answer and its `Code`, kept apart so the request log need not parse the body back. */
export interface SmsAnswer {
  readonly code: string;
  readonly response: ServiceResponse;
}

/** A failure: HTTP 400 (unless told otherwise) with the spec's shape and an empty `RequestId`. */
export function smsFailure(
  code: string,
  message: string,
  status = 400,
  headers: Readonly<Record<string, string>> = {},
): SmsAnswer {
  return { code, response: jsonResponse(status, { Code: code, Message: message, RequestId: '' }, headers) };
}

/** The success answer: HTTP 200, `Code` and `Message` `OK`, and the send's unique `RequestId`. */
export function smsSuccess(requestId: string): SmsAnswer {
  return { code: 'OK', response: jsonResponse(200, { Code: 'OK', Message: 'OK', RequestId: requestId }) };
}

/** Tells a failure from a value in the checking steps. */
export function isAnswer(value: unknown): value is SmsAnswer {
  return typeof value === 'object' && value !== null && 'response' in value && 'code' in value;
}
