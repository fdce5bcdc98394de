import * as z from '../zod-mini';

/** A device of the user (sync): a random id made on the device, and the name set in Settings. */
export const DeviceRef = z.object({ id: z.string().check(z.minLength(1), z.maxLength(100)), name: z.string().check(z.maxLength(80)) });
export type DeviceRef = z.infer<typeof DeviceRef>;
