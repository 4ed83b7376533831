import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';
import { estimatedBits } from './secretStrength.ts';

const STRONG = {
  GALLERY_PASSWORD: 'birthday-cake-42',
  ADMIN_PASSWORD: 'Moderate-all-the-things-7',
  ADMIN_KEY: 'q0V9kYbqE1xH3rTz8LmN2pWs5dUf',
};
const production = (env: Record<string, string>) => () => loadConfig({ NODE_ENV: 'production', ...env });

describe('production refuses weak configuration', () => {
  it('accepts distinct, strong secrets', () => {
    expect(loadConfig({ NODE_ENV: 'production', ...STRONG }).production).toBe(true);
  });

  it('reads NODE_ENV in any case: Production with the demo passwords does not start', () => {
    const run = () => loadConfig({ NODE_ENV: 'Production' });
    expect(run).toThrow(ConfigError);
    expect(run).toThrow(/GALLERY_PASSWORD is missing/);
    expect(() => loadConfig({ NODE_ENV: ' PRODUCTION ', ...STRONG, ADMIN_PASSWORD: 'admin-demo' })).toThrow(
      /ADMIN_PASSWORD is the demo value/,
    );
  });

  it('refuses a gallery password equal to the admin password', () => {
    const same = production({ ...STRONG, GALLERY_PASSWORD: STRONG.ADMIN_PASSWORD });
    expect(same).toThrow(/GALLERY_PASSWORD and ADMIN_PASSWORD must differ/);
    expect(production({ ...STRONG, AUDITOR_PASSWORD: STRONG.ADMIN_PASSWORD })).toThrow(
      /ADMIN_PASSWORD and AUDITOR_PASSWORD must differ/,
    );
  });

  it('refuses an admin key under 128 bits, ADMIN_KEY=1 first of all', () => {
    expect(production({ ...STRONG, ADMIN_KEY: '1' })).toThrow(/ADMIN_KEY is too weak/);
    expect(production({ ...STRONG, ADMIN_KEY: 'f'.repeat(40) })).toThrow(/ADMIN_KEY is too weak/);
    expect(production({ ...STRONG, ADMIN_KEY: '0123456789abcdef0123456789abcde' })).toThrow(/ADMIN_KEY/); // 124 bits
    expect(production({ ...STRONG, ADMIN_KEY: 'c0ffee1234567890abcdef0123456789' })()).toBeTruthy(); // 128 bits
  });

  it('refuses short or plain passwords', () => {
    expect(production({ ...STRONG, GALLERY_PASSWORD: 'robin' })).toThrow(/GALLERY_PASSWORD is too weak/);
    expect(production({ ...STRONG, ADMIN_PASSWORD: 'aaaaaaaaaaaaaaaa' })).toThrow(/ADMIN_PASSWORD is too weak/);
  });

  it('leaves development alone', () => {
    expect(loadConfig({ NODE_ENV: 'development' }).adminKey).toBe('admin-key-demo');
  });
});

describe('estimated bits', () => {
  it('counts the alphabet a secret draws on', () => {
    expect(estimatedBits('c0ffee1234567890abcdef0123456789')).toBe(128);
    expect(estimatedBits('1')).toBeLessThan(5);
  });
});
