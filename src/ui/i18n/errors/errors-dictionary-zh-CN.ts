import { errorDetailStringsZhCN } from '../chat/error-detail-strings.zh-CN';
import { errorStringsZhCN } from '../shell/error-strings.zh-CN';
import { runErrorStringsZhCN } from '../shell/run-error-strings.zh-CN';
import { syncErrorStringsZhCN } from './sync-error-strings.zh-CN';
import type { ErrorsKey } from '../dictionary';

/** An error's words in Chinese, loaded with them when the UI speaks Chinese. A missing key fails the type check. */
export const errorsZhCN: Record<ErrorsKey, string> = { ...errorStringsZhCN, ...errorDetailStringsZhCN, ...syncErrorStringsZhCN, ...runErrorStringsZhCN };
