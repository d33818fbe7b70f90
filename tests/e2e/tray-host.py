"""A StatusNotifier host for the end-to-end suite: owns
org.kde.StatusNotifierWatcher on the session bus, as a desktop panel does,
so the app's tray icon registers with it. Prints one JSON line per item
state (title, icon, which of the PNGs in ICONS_DIR it shows, menu labels and
toggles); reads "click LABEL" lines on stdin and clicks that menu entry
through com.canonical.dbusmenu.

usage: tray-host.py [ICONS_DIR]
"""

import json
import os
import sys
import time

import gi

gi.require_version("Gio", "2.0")
gi.require_version("GdkPixbuf", "2.0")
from gi.repository import GdkPixbuf, Gio, GLib  # noqa: E402

WATCHER_XML = """
<node>
  <interface name="org.kde.StatusNotifierWatcher">
    <method name="RegisterStatusNotifierItem"><arg type="s" direction="in"/></method>
    <method name="RegisterStatusNotifierHost"><arg type="s" direction="in"/></method>
    <property name="RegisteredStatusNotifierItems" type="as" access="read"/>
    <property name="IsStatusNotifierHostRegistered" type="b" access="read"/>
    <property name="ProtocolVersion" type="i" access="read"/>
    <signal name="StatusNotifierItemRegistered"><arg type="s"/></signal>
  </interface>
</node>
"""

def pixels(path):
    pb = GdkPixbuf.Pixbuf.new_from_file(path)
    if not pb.get_has_alpha():
        pb = pb.add_alpha(False, 0, 0, 0)
    return (pb.get_width(), pb.get_height(), bytes(pb.get_pixels()))


KNOWN = {}
if len(sys.argv) > 1:
    for f in sorted(os.listdir(sys.argv[1])):
        if f.endswith(".png"):
            KNOWN[pixels(os.path.join(sys.argv[1], f))] = f[:-4]


def shows(path):
    # The item removes its previous icon file when it sets the next one.
    try:
        return KNOWN.get(pixels(path), "unknown")
    except GLib.Error:
        return "gone"


bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
items = []  # (bus name, object path)


def call(name, path, iface, method, args, reply):
    return bus.call_sync(name, path, iface, method, args, GLib.VariantType(reply) if reply else None,
                         Gio.DBusCallFlags.NONE, 5000, None)


def prop(name, path, key):
    v = call(name, path, "org.freedesktop.DBus.Properties", "Get",
             GLib.Variant("(ss)", ("org.kde.StatusNotifierItem", key)), "(v)")
    return v.unpack()[0]


def menu_entries(name, menu_path):
    layout = call(name, menu_path, "com.canonical.dbusmenu", "GetLayout",
                  GLib.Variant("(iias)", (0, -1, [])), "(u(ia{sv}av))").unpack()[1]
    out = []
    for child in layout[2]:
        cid, props, _ = child
        if props.get("type") == "separator":
            continue
        out.append({"id": cid, "label": props.get("label", "").replace("_", ""),
                    "toggled": props.get("toggle-state", 0) == 1, "visible": props.get("visible", True)})
    return out


def report():
    for name, path in items:
        try:
            menu_path = prop(name, path, "Menu")
            icon = prop(name, path, "IconName")
            state = {
                "title": prop(name, path, "Title"),
                "icon": icon,
                "shows": shows(icon),
                "icon_theme_path": prop(name, path, "IconThemePath"),
                "menu": menu_entries(name, menu_path),
            }
        except GLib.Error as e:
            state = {"error": e.message}
        print(json.dumps(state), flush=True)


def on_call(_conn, sender, _path, _iface, method, params, invocation):
    if method == "RegisterStatusNotifierItem":
        arg = params.unpack()[0]
        path = arg if arg.startswith("/") else "/StatusNotifierItem"
        name = sender if arg.startswith("/") else arg
        items.append((name, path))
        # Read at once: a short state's icon file is gone with the next one.
        bus.signal_subscribe(name, "org.kde.StatusNotifierItem", None, path, None,
                             Gio.DBusSignalFlags.NONE, lambda *a: report())
        invocation.return_value(None)
        GLib.timeout_add(300, lambda: report() and False)
    else:
        invocation.return_value(None)


def on_get(_conn, _sender, _path, _iface, key):
    if key == "RegisteredStatusNotifierItems":
        return GLib.Variant("as", [n for n, _ in items])
    if key == "IsStatusNotifierHostRegistered":
        return GLib.Variant("b", True)
    return GLib.Variant("i", 0)


def on_stdin(source, _cond):
    line = source.readline()
    if not line:
        loop.quit()
        return False
    cmd, _, label = line.strip().partition(" ")
    if cmd == "click":
        # The app may rebuild its menu between the read and the click (a
        # task ends, Resume appears): the ids change, so read again and retry,
        # as a panel that redraws would.
        for attempt in range(10):
            try:
                for name, path in items:
                    menu_path = prop(name, path, "Menu")
                    for e in menu_entries(name, menu_path):
                        if e["label"] == label:
                            call(name, menu_path, "com.canonical.dbusmenu", "Event",
                                 GLib.Variant("(isvu)", (e["id"], "clicked", GLib.Variant("i", 0), 0)), None)
                break
            except GLib.Error as err:
                # Only a stale id is retried: any other error may follow a
                # delivered click (Quit ends the app before it replies).
                if "does not refer to a menu item" not in err.message:
                    break
                print(f"tray-host: click {label!r} missed a rebuilt menu; again", file=sys.stderr)
                time.sleep(0.2)
        GLib.timeout_add(500, lambda: report() and False)
    elif cmd == "report":
        report()
    return True


node = Gio.DBusNodeInfo.new_for_xml(WATCHER_XML)
bus.register_object("/StatusNotifierWatcher", node.interfaces[0], on_call, on_get, None)
Gio.bus_own_name_on_connection(bus, "org.kde.StatusNotifierWatcher", Gio.BusNameOwnerFlags.NONE,
                               lambda *a: print(json.dumps({"watching": True}), flush=True), None)
GLib.io_add_watch(sys.stdin, GLib.IO_IN | GLib.IO_HUP, on_stdin)
loop = GLib.MainLoop()
loop.run()
