import { createRequire } from 'node:module';
import type { ZxcvbnFactory } from '@zxcvbn-ts/core';

/**
 * zxcvbn and its dictionaries are loaded on first use: only production asks, and loading the
 * dictionaries costs every other process (each CLI run, each test file) about half a second of CPU.
 */
const load = createRequire(import.meta.url);

/**
 * What production refuses (docs/decisions/022, 061): an unknown NODE_ENV, demo or missing secrets,
 * secrets shared between roles, and secrets that zxcvbn, a strength estimator that knows common
 * passwords, words, names, keyboard patterns and their usual variations, rates guessable.
 */

/** zxcvbn's score: 3 is at least 10^8 guesses, 4 at least 10^10. */
export const MIN_SCORE = { galleryPassword: 3, adminPassword: 4, auditorPassword: 4, adminKey: 4 } as const;
/** A floor under the estimate: a key is made by a machine (`openssl rand -base64 24`), passwords by people. */
const MIN_LENGTH = { galleryPassword: 10, adminPassword: 12, auditorPassword: 12, adminKey: 22 } as const;

type SecretName = keyof typeof MIN_SCORE;
const ENV_NAMES: Record<SecretName, string> = {
  galleryPassword: 'GALLERY_PASSWORD',
  adminPassword: 'ADMIN_PASSWORD',
  auditorPassword: 'AUDITOR_PASSWORD',
  adminKey: 'ADMIN_KEY',
};

/** Words that a guesser of this gallery's secrets tries first. */
const OBVIOUS = ['tribute', 'gallery', 'birthday', 'admin', 'auditor', 'guest', 'password', 'key'];

let estimator: ZxcvbnFactory | undefined;
function zxcvbn() {
  if (estimator) return estimator;
  const { ZxcvbnFactory } = load('@zxcvbn-ts/core') as typeof import('@zxcvbn-ts/core');
  const common = load('@zxcvbn-ts/language-common') as typeof import('@zxcvbn-ts/language-common');
  const english = load('@zxcvbn-ts/language-en') as typeof import('@zxcvbn-ts/language-en');
  const { adjacencyGraphs, dictionary: commonWords } = common;
  const { dictionary: englishWords, translations } = english;
  estimator = new ZxcvbnFactory({
    translations,
    graphs: adjacencyGraphs,
    dictionary: { ...commonWords, ...englishWords },
    // l33t spellings with up to 4 swapped characters (P@ssw0rd): the default, 100, takes seconds on a
    // random 28-character key and finds nothing more in the secrets people set
    l33tMaxSubstitutions: 4,
  });
  return estimator;
}

/** zxcvbn's estimate: its score (0 to 4) and the guesses it expects, given what the gallery is about. */
export function strengthOf(secret: string, context: (string | number)[] = []) {
  const { score, guessesLog10 } = zxcvbn().check(secret, [...OBVIOUS, ...context]);
  return { score, guessesLog10 };
}

/** Every problem with the secrets, one line each, naming the variable and what would do. */
export function weakSecretProblems(
  secrets: Partial<Record<SecretName, string | undefined>>,
  demo: Partial<Record<SecretName, string>>,
  context: (string | number)[] = [],
): string[] {
  const problems: string[] = [];
  for (const name of Object.keys(MIN_SCORE) as SecretName[]) {
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
    const { score, guessesLog10 } = strengthOf(value, context);
    if (value.length < MIN_LENGTH[name] || score < MIN_SCORE[name]) {
      const hint =
        name === 'adminKey' ? ' (for example `openssl rand -base64 24`)' : ' (for example four random words)';
      problems.push(
        `${env} is guessable: at least ${MIN_LENGTH[name]} characters and a zxcvbn score of ${MIN_SCORE[name]} needed${hint}; it has ${value.length} characters, score ${score} (about 10^${Math.floor(guessesLog10)} guesses)`,
      );
    }
  }
  const given = (Object.keys(MIN_SCORE) as SecretName[]).filter((n) => secrets[n]);
  for (let i = 0; i < given.length; i++) {
    for (let j = i + 1; j < given.length; j++) {
      const [a, b] = [given[i]!, given[j]!];
      if (secrets[a]!.trim().toLowerCase() === secrets[b]!.trim().toLowerCase()) {
        problems.push(`${ENV_NAMES[a]} and ${ENV_NAMES[b]} must differ`);
      }
    }
  }
  return problems;
}

export const NODE_ENVS = ['production', 'development', 'test'] as const;
export type NodeEnv = (typeof NODE_ENVS)[number];

/**
 * NODE_ENV in any case and spacing (`Production`, ` PRODUCTION `); unset or empty is development.
 * Anything else is undefined: the caller refuses to start rather than guess (`prod` is not
 * production, and running it as development would print the demo passwords).
 */
export function nodeEnvOf(value: string | undefined): NodeEnv | undefined {
  const name = (value ?? '').trim().toLowerCase() || 'development';
  return (NODE_ENVS as readonly string[]).includes(name) ? (name as NodeEnv) : undefined;
}
