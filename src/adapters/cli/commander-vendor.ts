// The parts of commander the CLI uses. The build bundles this file into one ES module for the modular
// build (scripts/bundle-bins.mjs); the CLI bundle holds commander itself.
export { Command, CommanderError } from "commander";
