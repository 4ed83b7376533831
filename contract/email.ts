/**
 * The one email rule, for the web's forms and the server's checks alike (issue 10): before it, the
 * forms used the first version's narrow pattern and the server zod's, so `a+b@x.com` passed the server
 * and failed the form. This is zod's own `z.email()` pattern, less its needless escapes (decision 042): dot-separated parts of
 * letters, digits and `_ ' + -` before the @, then dot-separated labels and a top-level name of two
 * letters or more. Surrounding spaces are not part of the address.
 */
export const EMAIL_PATTERN =
  /^(?:[A-Za-z0-9_'+-]+\.)*[A-Za-z0-9_'+-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;

export function isValidEmail(email: string): boolean {
  return EMAIL_PATTERN.test(email.trim());
}
