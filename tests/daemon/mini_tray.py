"""A minimal X11 system tray (the freedesktop System Tray protocol) for tests where no real
tray program (trayer) is installed: it owns _NET_SYSTEM_TRAY_S<screen>, shows a grey panel
in the top-right corner and reparents every icon that asks to be docked into it.

It is the protocol a desktop panel speaks, reduced to docking: enough for pystray's xorg
backend to show its icon, be clicked and be photographed."""

from __future__ import annotations

import threading
from typing import Any

PANEL_W, PANEL_H, ICON = 160, 36, 24
REQUEST_DOCK = 0


class MiniTray:
    def __init__(self, display_name: str):
        from Xlib import X, display

        self.X = X
        self.d = display.Display(display_name)
        screen = self.d.screen()
        self.root = screen.root
        sw = screen.width_in_pixels
        self.panel = self.root.create_window(
            sw - PANEL_W, 0, PANEL_W, PANEL_H, 0, screen.root_depth,
            background_pixel=0xDDDDDD,
            event_mask=X.SubstructureNotifyMask | X.StructureNotifyMask,
            override_redirect=True,
        )
        self.panel.map()
        self.sel = self.d.intern_atom(f"_NET_SYSTEM_TRAY_S{self.d.get_default_screen()}")
        self.opcode = self.d.intern_atom("_NET_SYSTEM_TRAY_OPCODE")
        self.panel.set_selection_owner(self.sel, X.CurrentTime)
        self.d.flush()
        self.docked: list[int] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="mini-tray", daemon=True)
        self._thread.start()

    def _loop(self) -> None:
        X = self.X
        while not self._stop.is_set():
            try:
                if not self.d.pending_events():
                    self._stop.wait(0.02)
                    continue
                ev = self.d.next_event()
            except Exception:
                return
            if ev.type == X.DestroyNotify and ev.window.id in self.docked:
                self.docked.remove(ev.window.id)
            elif ev.type == X.ClientMessage and ev.client_type == self.opcode:
                data = ev.data[1]
                if data[1] == REQUEST_DOCK:
                    self._dock(data[2])

    def _dock(self, wid: int) -> None:
        if wid in self.docked:  # pystray asks again on every icon update
            return
        win: Any = self.d.create_resource_object("window", wid)
        x = PANEL_W - (len(self.docked) + 1) * (ICON + 4)
        try:
            win.reparent(self.panel, x, (PANEL_H - ICON) // 2)
            win.configure(width=ICON, height=ICON)
            win.map()
            self.d.flush()
        except Exception:
            return
        if wid not in self.docked:
            self.docked.append(wid)

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)
        try:
            self.d.close()
        except Exception:
            pass
