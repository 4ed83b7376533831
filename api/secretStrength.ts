/**
 * What production refuses (docs/decisions/022): demo or missing secrets, passwords shared between
 * roles, passwords too easy to guess, and an admin key under 128 bits.
 */
export const MIN_BITS = { galleryPassword: 40, adminPassword: 60, auditorPassword: 60, adminKey: 128 } as const;
const MIN_LENGTH = { galleryPassword: 10, adminPassword: 12, auditorPassword: 12, adminKey: 22 } as const;

type SecretName = keyof typeof MIN_BITS;
const ENV_NAMES: Record<SecretName, string> = {
  galleryPassword: 'GALLERY_PASSWORD',
  adminPassword: 'ADMIN_PASSWORD',
  auditorPassword: 'AUDITOR_PASSWORD',
  adminKey: 'ADMIN_KEY',
};

/**
 * A generous estimate of a secret's entropy: its length times the bits of the alphabet it draws on
 * (hex, digits, letters, symbols), counted on its distinct characters so `aaaaaaaa…` stays weak.
 */
export function estimatedBits(secret: string): number {
  const chars = [...secret];
  let alphabet = 0;
  if (/^[0-9a-f]+$/i.test(secret) && /[0-9]/.test(secret)) alphabet = 16;
  else {
    if (/[0-9]/.test(secret)) alphabet += 10;
    if (/[a-z]/.test(secret)) alphabet += 26;
    if (/[A-Z]/.test(secret)) alphabet += 26;
    if (/[^0-9a-zA-Z]/.test(secret)) alphabet += 33;
  }
  const distinct = new Set(chars).size;
  // a secret that repeats a few characters is worth no more than its distinct ones spread out
  const effectiveLength = Math.min(chars.length, distinct * 3);
  return Math.floor(effectiveLength * Math.log2(Math.max(alphabet, 2)));
}

/** Every problem with the secrets, one line each, naming the variable and what would do. */
export function weakSecretProblems(
  secrets: Partial<Record<SecretName, string | undefined>>,
  demo: Partial<Record<SecretName, string>>,
): string[] {
  const problems: string[] = [];
  for (const name of Object.keys(MIN_BITS) as SecretName[]) {
    const value = secrets[name];
    const env = ENV_NAMES[name];
    if (value === undefined || value === '') {
      if (name !== 'auditorPassword') problems.push(`${env} is missing`);
      continue;
    }
    if (value === demo[name]) {
      problems.push(`${env} is the demo value`);
      continue;
    }
    const bits = estimatedBits(value);
    if (value.length < MIN_LENGTH[name] || bits < MIN_BITS[name]) {
      const hint = name === 'adminKey' ? ' (for example `openssl rand -base64 24`)' : '';
      problems.push(
        `${env} is too weak: at least ${MIN_LENGTH[name]} characters and about ${MIN_BITS[name]} bits${hint}; it has ${value.length} characters, about ${bits} bits`,
      );
    }
  }
  const given = (Object.keys(MIN_BITS) as SecretName[]).filter((n) => secrets[n]);
  for (let i = 0; i < given.length; i++) {
    for (let j = i + 1; j < given.length; j++) {
      const [a, b] = [given[i]!, given[j]!];
      if (secrets[a] === secrets[b]) problems.push(`${ENV_NAMES[a]} and ${ENV_NAMES[b]} must differ`);
    }
  }
  return problems;
}

/** NODE_ENV names production in any case and spacing: `Production`, ` PRODUCTION `. */
export const isProduction = (nodeEnv: string | undefined) => nodeEnv?.trim().toLowerCase() === 'production';
