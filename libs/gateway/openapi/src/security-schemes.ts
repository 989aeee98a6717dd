/** The server API's scheme: an environment's API key as a bearer token (the pingram client's name). */
export const API_KEY_SCHEME = 'apiKey';
/** The browser client's scheme: one end user of one environment, over HTTP Basic. */
export const END_USER_SCHEME = 'endUser';
/** A member (a person) signed in with a JWT from the organisation's identity provider. */
export const JWT_SCHEME = 'memberJwt';
/** The service operator (not a tenant), on the operator routes: OPERATOR_TOKEN as a bearer token. */
export const OPERATOR_SCHEME = 'operatorToken';
