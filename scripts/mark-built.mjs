#!/usr/bin/env node
// A step of `npm run build`, right after `next build`: records that .next holds a build of the
// current sources (scripts/build-state.mjs), so that `npm start` serves it instead of building again.
import { markBuilt } from "./build-state.mjs";

markBuilt();
