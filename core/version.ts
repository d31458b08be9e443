/** The version of Lass, reported by `GET /api/health` and `--version`. */
export const VERSION = "0.1.0";
