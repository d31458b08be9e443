/**
 * Imported first by `_cli_floor.ts`: zod checks without compiling from here on. A module of its
 * own so that it runs before the SDKs' modules create their schemas.
 */
import { z } from "zod";

z.config({ jitless: true });
