import { importErrorStringsZhCN } from './import-error-strings.zh-CN';
import { connectionTestStringsZhCN } from './connection-test-strings.zh-CN';
import { dataStringsZhCN } from './data-strings.zh-CN';
import { localModelStringsZhCN } from './local-model-strings.zh-CN';
import { mcpStringsZhCN } from './mcp-strings.zh-CN';
import { settingsStringsZhCN } from './settings-strings.zh-CN';
import { syncSettingsStringsZhCN } from './sync-settings-strings.zh-CN';
import type { SettingsKey } from '../dictionary';

/** Settings' strings in Chinese, loaded with Settings when the UI speaks Chinese. A missing key fails the type check. */
export const settingsZhCN: Record<SettingsKey, string> = { ...dataStringsZhCN, ...mcpStringsZhCN, ...localModelStringsZhCN, ...settingsStringsZhCN, ...syncSettingsStringsZhCN, ...connectionTestStringsZhCN, ...importErrorStringsZhCN };
