import { WireError } from '../../../schema/protocol';
import { LocalModelStoreError } from './model-store';

/** Runs a model-store call at the command boundary: a store error becomes a WireError whose message the UI shows. */
export async function run<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof LocalModelStoreError) {
      throw new WireError({ code: error.detail.code === 'quota' ? 'storage_full' : 'provider_error', message: error.message, field: `localModel.${error.detail.code}` }, { cause: error });
    }
    throw error;
  }
}
