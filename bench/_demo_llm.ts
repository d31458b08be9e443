/** The built-in demo model as a config record, the model every bench runs on (no key, no network). */
export const DEMO_LLM = {
  id: "demo",
  name: "Demo",
  provider: "compatible-api",
  model: "demo",
  baseURL: "service:demo",
};
