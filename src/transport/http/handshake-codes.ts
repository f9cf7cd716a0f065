/**
 * Error codes that only a TLS handshake produces: certificate validation and
 * version, cipher or name negotiation. A client writes no request before its
 * handshake is complete, so these prove that nothing was sent.
 *
 * TLS 1.3 lets a client send its request right after its `Finished` message,
 * before the server has accepted a client certificate; when the server then
 * refuses it with an alert (`…_ALERT_CERTIFICATE_REQUIRED`, `…_BAD_CERTIFICATE`),
 * its handshake never completed, so its application never read the request.
 * Those alerts are therefore handshake failures too.
 *
 * Deliberately absent: record-layer errors. A corrupted or forged record
 * mid-response is reported by OpenSSL as `ERR_SSL_DECRYPTION_FAILED_OR_BAD_RECORD_MAC`,
 * `ERR_SSL_BAD_RECORD_TYPE`, `ERR_SSL_PACKET_LENGTH_TOO_LONG` and even
 * `ERR_SSL_WRONG_VERSION_NUMBER` (a garbage record header; measured on
 * OpenSSL 3.0), so none of them proves the request was not written, although
 * the last is also what an `https:` client gets from a plain-HTTP port.
 */
export const TLS_HANDSHAKE_CODES: ReadonlySet<string> = new Set([
  // Certificate validation (Node's X509 verification codes).
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_CRL',
  'UNABLE_TO_DECRYPT_CERT_SIGNATURE',
  'UNABLE_TO_DECRYPT_CRL_SIGNATURE',
  'UNABLE_TO_DECODE_ISSUER_PUBLIC_KEY',
  'CERT_SIGNATURE_FAILURE',
  'CRL_SIGNATURE_FAILURE',
  'CERT_NOT_YET_VALID',
  'CERT_HAS_EXPIRED',
  'CRL_NOT_YET_VALID',
  'CRL_HAS_EXPIRED',
  'ERROR_IN_CERT_NOT_BEFORE_FIELD',
  'ERROR_IN_CERT_NOT_AFTER_FIELD',
  'ERROR_IN_CRL_LAST_UPDATE_FIELD',
  'ERROR_IN_CRL_NEXT_UPDATE_FIELD',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'CERT_CHAIN_TOO_LONG',
  'CERT_REVOKED',
  'INVALID_CA',
  'PATH_LENGTH_EXCEEDED',
  'INVALID_PURPOSE',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
  'HOSTNAME_MISMATCH',
  // Node's own checks of the peer during the handshake.
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'ERR_TLS_CERT_ALTNAME_FORMAT',
  'ERR_TLS_HANDSHAKE_TIMEOUT',
  'ERR_TLS_DH_PARAM_SIZE',
  // OpenSSL: certificate checks and weak keys.
  'ERR_SSL_CERTIFICATE_VERIFY_FAILED',
  'ERR_SSL_CA_MD_TOO_WEAK',
  'ERR_SSL_CA_KEY_TOO_SMALL',
  'ERR_SSL_EE_KEY_TOO_SMALL',
  'ERR_SSL_DH_KEY_TOO_SMALL',
  // OpenSSL: version, cipher, group and name negotiation.
  'ERR_SSL_UNSUPPORTED_PROTOCOL',
  'ERR_SSL_NO_PROTOCOLS_AVAILABLE',
  'ERR_SSL_VERSION_TOO_LOW',
  'ERR_SSL_VERSION_TOO_HIGH',
  'ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION',
  'ERR_SSL_NO_CIPHERS_AVAILABLE',
  'ERR_SSL_NO_SHARED_CIPHER',
  'ERR_SSL_NO_SUITABLE_SIGNATURE_ALGORITHM',
  'ERR_SSL_NO_SUITABLE_KEY_SHARE',
  'ERR_SSL_UNSAFE_LEGACY_RENEGOTIATION_DISABLED',
  'ERR_SSL_TLSV1_UNRECOGNIZED_NAME',
  // Alerts a server sends to end a handshake.
  'ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE',
  'ERR_SSL_TLSV1_ALERT_INSUFFICIENT_SECURITY',
  'ERR_SSL_TLSV1_ALERT_NO_APPLICATION_PROTOCOL',
  'ERR_SSL_TLSV1_ALERT_UNKNOWN_CA',
  'ERR_SSL_TLSV1_ALERT_ACCESS_DENIED',
  'ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED',
  'ERR_SSL_SSLV3_ALERT_BAD_CERTIFICATE',
  'ERR_SSL_SSLV3_ALERT_UNSUPPORTED_CERTIFICATE',
  'ERR_SSL_SSLV3_ALERT_CERTIFICATE_REVOKED',
  'ERR_SSL_SSLV3_ALERT_CERTIFICATE_EXPIRED',
  'ERR_SSL_SSLV3_ALERT_CERTIFICATE_UNKNOWN',
]);

/** Codes of a failing TLS layer, handshake or not: `ERR_SSL_*`, `ERR_TLS_*` and certificate codes. */
export const isTlsCode = (code: string): boolean => code.startsWith('ERR_SSL_') || code.startsWith('ERR_TLS_');
