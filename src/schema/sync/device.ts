import { z } from 'zod';

/** A device of the user (sync): a random id made on the device, and the name set in Settings. */
export const DeviceRef = z.object({ id: z.string().min(1).max(100), name: z.string().max(80) });
export type DeviceRef = z.infer<typeof DeviceRef>;
