import { config } from 'zod/mini';
import { en } from 'zod/locales';

// zod/mini carries no messages of its own ("Invalid input" for everything): English, the same sentences classic zod
// gives, for every error the app shows or the model reads. Every schema imports zod from here, so this runs first.
config(en());

// Imported as a namespace (`import * as z from './zod-mini'`), never re-exported as one object: the bundler then keeps
// only the functions the schemas call.
export * from 'zod/mini';
