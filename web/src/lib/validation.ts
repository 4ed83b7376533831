/** Spec §5: letters, digits, dot, underscore, hyphen, then @, a domain, then a 2-6 letter ending. */
const SIMPLE_EMAIL = /^[a-zA-Z0-9._-]+@[a-zA-Z0-9.-]+\.[a-zA-Z]{2,6}$/;

export function isValidEmail(email: string): boolean {
  return SIMPLE_EMAIL.test(email.trim());
}
