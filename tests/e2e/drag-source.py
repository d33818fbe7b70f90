"""A small GTK window that offers a folder by drag and drop (XDND), so the
end-to-end suite can drop it on the app the way a file manager would.

usage: drag-source.py PATH X Y   (window placed at X,Y; prints "ready")
"""

import sys

import gi

gi.require_version("Gtk", "3.0")
gi.require_version("Gdk", "3.0")
from gi.repository import Gdk, GLib, Gtk  # noqa: E402

path, x, y = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
uri = GLib.filename_to_uri(path, None)

win = Gtk.Window(title="jarvis-drag-source")
win.set_default_size(80, 80)
win.move(x, y)
box = Gtk.EventBox()
box.add(Gtk.Label(label="drag me"))
win.add(box)
box.drag_source_set(Gdk.ModifierType.BUTTON1_MASK, [], Gdk.DragAction.COPY)
box.drag_source_add_uri_targets()


def on_get(_widget, _ctx, data, _info, _time):
    data.set_uris([uri])


def on_end(*_args):
    print("drag-end", flush=True)


box.connect("drag-data-get", on_get)
box.connect("drag-end", on_end)
win.connect("destroy", Gtk.main_quit)
win.show_all()
GLib.idle_add(lambda: print("ready", flush=True) and False)
Gtk.main()
