import { beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';
import { nodeEnvOf, strengthOf } from './secretStrength.ts';

const STRONG = {
  GALLERY_PASSWORD: 'violet-harbour-lantern',
  ADMIN_PASSWORD: 'Quietly-moderate-47-pebbles',
  ADMIN_KEY: 'q0V9kYbqE1xH3rTz8LmN2pWs5dUf',
};
// the estimator reads its dictionaries once, a second or two on a busy machine: not any test's time
beforeAll(() => void strengthOf('warm up'), 60_000);

const production = (env: Record<string, string>) => () => loadConfig({ NODE_ENV: 'production', ...env });

/** The lines loadConfig refuses with, one per problem. */
function refusal(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message.split('\n').slice(1);
  }
  throw new Error('loadConfig accepted it');
}

// each production config is a few zxcvbn estimates, up to half a second each on a busy machine
describe('production refuses weak configuration', { timeout: 30_000 }, () => {
  it('accepts distinct, strong secrets', () => {
    expect(loadConfig({ NODE_ENV: 'production', ...STRONG }).production).toBe(true);
    expect(loadConfig({ NODE_ENV: 'production', ...STRONG, AUDITOR_PASSWORD: 'Ledger-owl-93-sideways' })).toBeTruthy();
  });

  it('reads NODE_ENV in any case: Production with the demo passwords does not start', () => {
    const run = () => loadConfig({ NODE_ENV: 'Production' });
    expect(run).toThrow(ConfigError);
    expect(run).toThrow(/GALLERY_PASSWORD is missing/);
    expect(() => loadConfig({ NODE_ENV: ' PRODUCTION ', ...STRONG, ADMIN_PASSWORD: 'admin-demo' })).toThrow(
      /ADMIN_PASSWORD is the demo value/,
    );
  });

  it('refuses a NODE_ENV it does not know, naming it, instead of running as development', () => {
    for (const value of ['prod', 'staging', 'Production1']) {
      expect(refusal({ NODE_ENV: value, ...STRONG })).toEqual([
        `  NODE_ENV: "${value}" is not one this program knows (production, development, test)`,
      ]);
    }
    expect(nodeEnvOf(undefined)).toBe('development');
    expect(nodeEnvOf('')).toBe('development');
    expect(nodeEnvOf(' Test ')).toBe('test');
  });

  it('refuses a gallery password equal to the admin password, in any case', () => {
    const same = production({ ...STRONG, GALLERY_PASSWORD: STRONG.ADMIN_PASSWORD });
    expect(same).toThrow(/GALLERY_PASSWORD and ADMIN_PASSWORD must differ/);
    expect(production({ ...STRONG, AUDITOR_PASSWORD: STRONG.ADMIN_PASSWORD.toUpperCase() })).toThrow(
      /ADMIN_PASSWORD and AUDITOR_PASSWORD must differ/,
    );
    expect(production({ ...STRONG, ADMIN_KEY: STRONG.ADMIN_PASSWORD })).toThrow(
      /ADMIN_PASSWORD and ADMIN_KEY must differ/,
    );
  });

  it('refuses Password123! and the usual variations of words, names and keyboard rows', () => {
    expect(refusal({ NODE_ENV: 'production', ...STRONG, ADMIN_PASSWORD: 'Password123!' })).toEqual([
      expect.stringMatching(/^ {2}ADMIN_PASSWORD is guessable: .* score [0-3] /),
    ]);
    for (const guessable of ['P@ssw0rd2024!', 'Qwertyuiop123', 'Summer2025!!', 'AlexBirthday50']) {
      expect(production({ ...STRONG, ADMIN_PASSWORD: guessable }), guessable).toThrow(/ADMIN_PASSWORD is guessable/);
    }
    expect(production({ ...STRONG, GALLERY_PASSWORD: 'sunshine1234' })).toThrow(/GALLERY_PASSWORD is guessable/);
    expect(production({ ...STRONG, GALLERY_PASSWORD: 'robin' })).toThrow(/GALLERY_PASSWORD is guessable/);
    expect(production({ ...STRONG, ADMIN_PASSWORD: 'aaaaaaaaaaaaaaaa' })).toThrow(/ADMIN_PASSWORD is guessable/);
  });

  it('refuses an admin key that is short or patterned, ADMIN_KEY=1 first of all', () => {
    expect(production({ ...STRONG, ADMIN_KEY: '1' })).toThrow(/ADMIN_KEY is guessable/);
    expect(production({ ...STRONG, ADMIN_KEY: 'f'.repeat(40) })).toThrow(/ADMIN_KEY is guessable/);
    expect(production({ ...STRONG, ADMIN_KEY: '0123456789abcdef01234567' })).toThrow(/ADMIN_KEY is guessable/);
    expect(production({ ...STRONG, ADMIN_KEY: 'hV3xQ9tLr0ZcPb7WmK2eYs8N' })()).toBeTruthy();
  });

  it('lists every problem, one line each', () => {
    const lines = refusal({ NODE_ENV: 'production', GALLERY_PASSWORD: 'Password123!', ADMIN_PASSWORD: 'Password123!' });
    expect(lines).toEqual([
      expect.stringMatching(/^ {2}GALLERY_PASSWORD is guessable/),
      expect.stringMatching(/^ {2}ADMIN_PASSWORD is guessable/),
      '  ADMIN_KEY is missing',
      '  GALLERY_PASSWORD and ADMIN_PASSWORD must differ',
    ]);
  });

  it('leaves development and test alone', () => {
    expect(loadConfig({ NODE_ENV: 'development' }).adminKey).toBe('admin-key-demo');
    expect(loadConfig({}).production).toBe(false);
    expect(loadConfig({ NODE_ENV: 'test', ADMIN_PASSWORD: 'x' }).adminPassword).toBe('x');
  });
});

describe('strengthOf', () => {
  it('knows the tribute: its name given as context lowers the estimate', () => {
    expect(strengthOf('Xandrilux50!', ['Xandrilux', 50]).guessesLog10).toBeLessThan(
      strengthOf('Xandrilux50!').guessesLog10,
    );
    expect(production({ ...STRONG, TRIBUTE_NAME: 'Xandrilux', ADMIN_PASSWORD: 'Xandrilux-50-Xandrilux' })).toThrow(
      /ADMIN_PASSWORD is guessable/,
    );
  });
});
