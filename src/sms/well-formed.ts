/** In Unicode mode `\p{Cs}` matches only unpaired surrogates. */
const LONE_SURROGATE = /\p{Cs}/u;

/** False for text with a lone UTF-16 surrogate: it has no UTF-8 form, so it can be neither signed nor sent. */
export const isWellFormed = (text: string): boolean => !LONE_SURROGATE.test(text);
