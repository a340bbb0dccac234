// Workers import the built modules; they find them through AOP_DIST_URL.
import { pathToFileURL } from "node:url";
import { DIST } from "./paths.js";

process.env.AOP_DIST_URL = pathToFileURL(DIST).href;
