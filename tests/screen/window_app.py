"""A real X11 window for the screen tests: its title and text change on command.

Run as `python window_app.py TITLE TEXT [CLASS]`; reads lines "title ...", "text ...",
"quit" from stdin and answers each with the window id and "ok" once the X server has it.
"""

import sys
import tkinter as tk

title, text = sys.argv[1], sys.argv[2]
klass = sys.argv[3] if len(sys.argv) > 3 else "Filegramtest"
root = tk.Tk(className=klass)
root.title(title)
root.geometry(sys.argv[4] if len(sys.argv) > 4 else "900x560+40+40")
label = tk.Label(root, text=text, font=("DejaVu Sans", 30), bg="white", fg="black", justify="left")
label.pack(expand=True, fill="both")


def ready() -> None:
    root.update()
    root.update_idletasks()
    root.winfo_pointerxy()  # a round trip: the server has drawn everything asked so far
    print(f"ok {int(root.wm_frame(), 16)}", flush=True)


def on_input(_file: object, _mask: int) -> None:
    line = sys.stdin.readline()
    if not line or line.strip() == "quit":
        root.destroy()
        return
    cmd, _, arg = line.rstrip("\n").partition(" ")
    if cmd == "title":
        root.title(arg)
    elif cmd == "text":
        label.configure(text=arg.replace("\\n", "\n"))
    ready()


root.tk.createfilehandler(sys.stdin, tk.READABLE, on_input)
root.after(50, ready)
root.mainloop()
