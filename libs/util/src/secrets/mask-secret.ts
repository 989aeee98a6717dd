/** How a credential is shown on read: never in full; the last characters help tell values apart. */
export function maskSecret(secret: string): string {
  return secret.length <= 8 ? '••••' : `••••${secret.slice(-4)}`;
}
