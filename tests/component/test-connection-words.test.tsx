import { afterEach, describe, expect, it } from 'vitest';
import type { ConnectionTestResult } from '../../src/schema/protocol';
import { describeTestResult } from '../../src/ui/common/error-words';
import { setLocale } from '../../src/ui/i18n/i18n';

// Settings has no Continue button, so a rate-limited Test connection says when to try again instead.

afterEach(() => setLocale('en'));

const limited = (params: ConnectionTestResult['params']): ConnectionTestResult => ({
  ok: false,
  reason: 'rate_limited',
  message: 'The provider is rate-limiting requests (HTTP 429).',
  ...(params ? { params } : {}),
});

describe('Test connection rate-limited (HTTP 429)', () => {
  it('says to try again after the Retry-After the server sent', async () => {
    expect(describeTestResult(limited({ status: 429, retryAfterSeconds: 30 })).text).toBe('The server is limiting requests (HTTP 429). Try again in 30 s.');
    await setLocale('zh-CN');
    expect(describeTestResult(limited({ status: 429, retryAfterSeconds: 30 })).text).toBe('服务器正在限制请求频率（HTTP 429）。请在 30 秒后重试。');
  });

  it('says "in a minute" without Retry-After, and never "Continue"', () => {
    const words = describeTestResult(limited({ status: 429 }));
    expect(words.text).toBe('The server is limiting requests (HTTP 429). Try again in a minute.');
    expect(`${words.text} ${words.detail ?? ''}`).not.toMatch(/Continue/);
  });
});
