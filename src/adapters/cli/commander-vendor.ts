// The parts of commander the CLI uses. The build bundles this file into one ES module (see
// scripts/bundle-bins.mjs): loading commander's CommonJS files through the ESM loader costs more than
// a bundled copy, on every `aop` start.
export { Command, CommanderError } from "commander";
