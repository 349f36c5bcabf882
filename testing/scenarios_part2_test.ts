// A third of the offline scenario suite (see scenario_suite.ts); the parts run side by side.
import { registerSuitePart } from "./scenario_suite.ts";

registerSuitePart({ part: 2, parts: 3 });
