/**
 * Why a request's key was refused, as a 401's `details.reason` says it
 * (issue 19: every key mistake used to look the same), with the message a
 * client sees. Each tells the caller no more than it could already know:
 * - `missing` and `malformed` are about the header the caller sent (a
 *   malformed key fails its shape or checksum, or is not a Bearer one);
 * - `unknown_or_revoked` is one reason, not two: telling them apart would
 *   tell anyone who guesses a well-formed key whether it ever existed;
 * - `expired` is said only to a holder of the whole key (238 random bits),
 *   who was given its expiry with it;
 * - `brand_not_allowed`: the key is live, and the brand of the path is not
 *   one it may read (that the brand exists, its 404 would tell anyway);
 * - `family_not_allowed`: the key is live and may read the brand, and is
 *   restricted to families and areas that leave out the family of the path,
 *   or one the request asks to include (CONTRACT.md §4); its message goes
 *   on to name that family, which the caller asked for by name.
 */
export const KEY_REFUSALS = Object.freeze({
  missing: 'An API key is required: send it as "Authorization: Bearer <key>".',
  malformed: 'The Authorization header holds no well-formed API key: send "Authorization: Bearer <key>" with the key exactly as it was given.',
  unknown_or_revoked: 'The API key is unknown or has been revoked.',
  expired: 'The API key has expired.',
  brand_not_allowed: 'The API key is not authorized for this brand.',
  family_not_allowed: 'The API key is restricted to other families and areas.',
});

export type KeyRefusal = keyof typeof KEY_REFUSALS;
