import { importErrorStrings } from './import-error-strings';
import { connectionTestStrings } from './connection-test-strings';
import { dataStrings } from './data-strings';
import { localModelStrings } from './local-model-strings';
import { mcpStrings } from './mcp-strings';
import { settingsStrings } from './settings-strings';
import { syncSettingsStrings } from './sync-settings-strings';

/** The English strings only Settings shows: a chunk loaded with Settings' code, not with the page (see loadStrings). */
export const settingsEnglish = { ...dataStrings.en, ...mcpStrings.en, ...localModelStrings.en, ...settingsStrings.en, ...syncSettingsStrings.en, ...connectionTestStrings.en, ...importErrorStrings.en };
