/**
 * The web UI's entry module: takes the token from the URL into `sessionStorage`, starts the API
 * client and the event stream, and renders the app.
 */
import { render } from "preact";
import { App, startRouting } from "./shell.tsx";
import { startLeaveWarning } from "./leave_warning.ts";
import { startApp } from "./state.ts";
import { takeToken } from "./token.ts";

const root = document.getElementById("app")!;
const token = takeToken();
if (token) {
  startApp(token);
  startRouting();
  startLeaveWarning();
  root.classList.remove("boot");
  root.textContent = "";
  render(<App />, root);
  performance.mark("lass:rendered");
} else {
  root.innerHTML = "<main class='token-problem'><h1>Open Lass from the terminal</h1>" +
    "<p>This page needs the service token. Open the URL that Lass printed in the terminal when " +
    "it started.</p></main>";
}
