/**
 * Entry of the solver bundle (build/solver.ts), which wraps it as
 * `function waitlistSolver() { var waitlistEngine; …; return waitlistEngine; }`: assigning the
 * outer variable costs less than an IIFE's export helpers.
 */
import { connect } from './engine.js';

// biome-ignore lint/style/useConst: it is the wrapping function's variable, assigned below.
declare let waitlistEngine: { connect: typeof connect };

waitlistEngine = { connect };
