import { header } from "/static/common.js";

header();
