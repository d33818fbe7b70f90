"""A notification server for the end-to-end suite: owns
org.freedesktop.Notifications on the session bus, as a desktop's
notification daemon does, and prints one JSON line per notification
({"id", "summary", "body", "app", "actions"}). Prints {"ready": true} once
it owns the name. A line {"invoke": ID, "action": KEY} on stdin is the user
clicking: it emits ActionInvoked, then NotificationClosed, as a daemon does.
"""

import json
import sys
import threading

import gi

gi.require_version("Gio", "2.0")
from gi.repository import Gio, GLib  # noqa: E402

XML = """
<node>
  <interface name="org.freedesktop.Notifications">
    <method name="Notify">
      <arg type="s" direction="in"/><arg type="u" direction="in"/>
      <arg type="s" direction="in"/><arg type="s" direction="in"/>
      <arg type="s" direction="in"/><arg type="as" direction="in"/>
      <arg type="a{sv}" direction="in"/><arg type="i" direction="in"/>
      <arg type="u" direction="out"/>
    </method>
    <method name="CloseNotification"><arg type="u" direction="in"/></method>
    <method name="GetCapabilities"><arg type="as" direction="out"/></method>
    <method name="GetServerInformation">
      <arg type="s" direction="out"/><arg type="s" direction="out"/>
      <arg type="s" direction="out"/><arg type="s" direction="out"/>
    </method>
    <signal name="NotificationClosed"><arg type="u"/><arg type="u"/></signal>
    <signal name="ActionInvoked"><arg type="u"/><arg type="s"/></signal>
  </interface>
</node>
"""

counter = [0]
bus = [None]


def say(obj):
    print(json.dumps(obj), flush=True)


def on_call(conn, sender, path, iface, method, params, invocation):
    if method == "Notify":
        app, _replaces, _icon, summary, body, actions, _hints, _timeout = params.unpack()
        counter[0] += 1
        say({"id": counter[0], "app": app, "summary": summary, "body": body, "actions": list(actions)})
        invocation.return_value(GLib.Variant("(u)", (counter[0],)))
    elif method == "GetCapabilities":
        invocation.return_value(GLib.Variant("(as)", (["body", "actions"],)))
    elif method == "GetServerInformation":
        invocation.return_value(GLib.Variant("(ssss)", ("e2e", "jarvis", "1", "1.2")))
    else:
        invocation.return_value(None)


def signal(name, args):
    bus[0].emit_signal(None, "/org/freedesktop/Notifications", "org.freedesktop.Notifications", name, args)
    return False


def clicks():
    for line in sys.stdin:
        cmd = json.loads(line)
        nid, action = cmd["invoke"], cmd.get("action", "default")
        GLib.idle_add(signal, "ActionInvoked", GLib.Variant("(us)", (nid, action)))
        # 2: dismissed by the user.
        GLib.idle_add(signal, "NotificationClosed", GLib.Variant("(uu)", (nid, 2)))


def on_bus(conn, name):
    bus[0] = conn
    node = Gio.DBusNodeInfo.new_for_xml(XML)
    conn.register_object("/org/freedesktop/Notifications", node.interfaces[0], on_call, None, None)


def main():
    threading.Thread(target=clicks, daemon=True).start()
    Gio.bus_own_name(
        Gio.BusType.SESSION,
        "org.freedesktop.Notifications",
        Gio.BusNameOwnerFlags.NONE,
        on_bus,
        lambda *_: say({"ready": True}),
        lambda *_: (say({"error": "name lost"}), sys.exit(1)),
    )
    GLib.MainLoop().run()


main()
