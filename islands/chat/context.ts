/** The open chat, for parts deep in a turn (generative UI that continues the chat). */
import { createContext } from "preact";
import type { Chat } from "./controller.ts";

/** The chat the page shows; `null` outside a chat page. */
export const ChatContext = createContext<Chat | null>(null);
