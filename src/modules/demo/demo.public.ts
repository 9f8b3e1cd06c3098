/** The demo module's door: all that other modules and the app may use of it (docs/architecture.md). */
export { demoSizeSchema, seedDemoContent } from "./demo.service.ts";
