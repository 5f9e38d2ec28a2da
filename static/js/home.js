// Home page: create a room, take its cookie, go there.
import { createRoom, openSession, rememberToken } from "./api.js";

const form = document.getElementById("create-form");
const input = document.getElementById("name-input");
const error = document.getElementById("create-error");

try { input.value = localStorage.getItem("karanor:name") || ""; } catch { /* ignore */ }

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  const name = input.value.trim();
  error.hidden = true;
  if (!name) {
    error.textContent = "Enter your name first.";
    error.hidden = false;
    input.focus();
    return;
  }
  const button = form.querySelector("button");
  button.disabled = true;
  try {
    const room = await createRoom(name);
    try { localStorage.setItem("karanor:name", name); } catch { /* ignore */ }
    rememberToken(room.code, room.seat.token);
    await openSession(room.code, room.seat.token);
    location.assign(room.url || `/r/${room.code}`);
  } catch (e) {
    error.textContent = e.message;
    error.hidden = false;
    button.disabled = false;
  }
});
