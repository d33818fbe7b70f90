# Asks the Secret Service for Jarvis's API key, as any program that reaches
# the session bus can (ADDRESS is prepended by the test). Prints
# KEYRING-UNREACHABLE when the bus cannot be reached, SECRET:… otherwise.
import sys

from gi.repository import Gio, GLib

try:
    flags = Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION
    bus = Gio.DBusConnection.new_for_address_sync(ADDRESS, flags, None, None)  # noqa: F821
except GLib.Error as e:
    print("KEYRING-UNREACHABLE:", e.message)
    sys.exit(0)


def call(method, args, reply):
    return bus.call_sync(
        "org.freedesktop.secrets", "/org/freedesktop/secrets", "org.freedesktop.Secret.Service",
        method, args, GLib.VariantType(reply), 0, -1, None,
    ).unpack()


_, session = call("OpenSession", GLib.Variant("(sv)", ("plain", GLib.Variant("s", ""))), "(vo)")
unlocked, locked = call("SearchItems", GLib.Variant("(a{ss})", ({"service": "jarvis"},)), "(aoao)")
if locked:
    call("Unlock", GLib.Variant("(ao)", (locked,)), "(aoo)")
found = call("GetSecrets", GLib.Variant("(aoo)", (unlocked + locked, session)), "(a{o(oayays)})")[0]
for _, (_, _, value, _) in found.items():
    print("SECRET:" + bytes(value).decode(errors="replace"))
