/**
 * The roles of a security scheme's environment variables (docs/generated-cli.md, "Credentials"), each a variable's
 * name, never a value: what the config may name (config/types.ts) and what a generated CLI reads (runtime/manifest.ts).
 */
export interface CredentialRoles {
  /** apiKey, HTTP Bearer and other token-style HTTP schemes: the value sent; HTTP Basic: `user:password` in one. */
  value?: string;
  /** HTTP Basic: the user and the password, joined and encoded by the CLI. */
  username?: string;
  password?: string;
  /** OAuth 2 / OpenID Connect: an access token as is, or what the CLI obtains one with. */
  accessToken?: string;
  clientId?: string;
  clientSecret?: string;
  refreshToken?: string;
  /** AWS Signature Version 4: the access key id and secret access key every request is signed with, and the session token of temporary credentials. */
  accessKeyId?: string;
  secretAccessKey?: string;
  sessionToken?: string;
}
