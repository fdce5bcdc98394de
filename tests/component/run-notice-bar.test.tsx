import { render, screen } from '@solidjs/testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { RunNoticeBar } from '../../src/ui/chat/RunNoticeBar';
import { setLocale } from '../../src/ui/i18n/i18n';

// The transient note under a run: here, a model step waiting for a file another device sent (file-arrivals.ts).

afterEach(() => setLocale('en'));

describe("a run's notice", () => {
  it('says that the run waits for a file still syncing, in English and in Chinese', async () => {
    render(() => <RunNoticeBar notice={{ kind: 'waiting_file', message: 'Waiting for a file still syncing from another device.' }} />);
    expect(screen.getByRole('status')).toHaveTextContent('Waiting for a file still syncing from another device…');
    await setLocale('zh-CN');
    expect(screen.getByRole('status')).toHaveTextContent('正在等待仍在从另一台设备同步的文件…');
  });
});
