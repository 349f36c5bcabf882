/**
 * A self-signed certificate for `api.rebind.test` (valid until 2126) and its
 * key, for tests of TLS to a pinned address. Test material only: it signs
 * nothing but this name, and no client trusts it unless a test passes it as
 * a root certificate.
 *
 * @module
 */

/** The certificate (PEM), also the root a test trusts. */
export const REBIND_TEST_CERT = `
-----BEGIN CERTIFICATE-----
MIIBpjCCAU2gAwIBAgIUQ8EC+WHufHL8pFP+1+uRfrCorhUwCgYIKoZIzj0EAwIw
GjEYMBYGA1UEAwwPYXBpLnJlYmluZC50ZXN0MCAXDTI2MTEyNzAyMTkzMFoYDzIx
MjYxMTAzMDIxOTMwWjAaMRgwFgYDVQQDDA9hcGkucmViaW5kLnRlc3QwWTATBgcq
hkjOPQIBBggqhkjOPQMBBwNCAAQLxUubRHx5KA6nQ+Tsiyf77KrlHRaZnElfu/bT
8jTxkrQPw3iVOQEVBEPo746dJu5xtflYJsIyPXe6Wi/iF/4Ko28wbTAdBgNVHQ4E
FgQUBVxQ4vFGiKA4UHswQtdryVTK9vIwHwYDVR0jBBgwFoAUBVxQ4vFGiKA4UHsw
QtdryVTK9vIwDwYDVR0TAQH/BAUwAwEB/zAaBgNVHREEEzARgg9hcGkucmViaW5k
LnRlc3QwCgYIKoZIzj0EAwIDRwAwRAIgFS4EdCeHuAE9f+W9kGK3CipskGe323bP
kCCcmKNQKpgCIG76f8qNAPIBGN579FydWjaf8StKZClluu2fQ9ePcH8U
-----END CERTIFICATE-----
`;

/** Its private key (PEM). */
export const REBIND_TEST_KEY = `
-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgSAAoPh++Y53uZUJU
4YbK6TmMQeK44Ov1KlxKqWtKMgyhRANCAAQLxUubRHx5KA6nQ+Tsiyf77KrlHRaZ
nElfu/bT8jTxkrQPw3iVOQEVBEPo746dJu5xtflYJsIyPXe6Wi/iF/4K
-----END PRIVATE KEY-----
`;
