# A freedesktop notification server for the tests, on the session bus it runs in: it records every
# Notify call it receives (one JSON line each in the file named first) and answers as a desktop's
# would. Started by test/helpers/notification-server.ts inside `dbus-run-session`; it prints the
# bus's address and its pid, and stops by itself after at most the seconds named second.
# Needs python3-dbus and python3-gi (Debian packages; .ci/run installs them where it can).
import json
import os
import sys

import dbus
import dbus.mainloop.glib
import dbus.service
from gi.repository import GLib

IFACE = 'org.freedesktop.Notifications'
record, limit = sys.argv[1], int(sys.argv[2])
capabilities = (sys.argv[3] if len(sys.argv) > 3 else 'body,body-markup').split(',')


class Server(dbus.service.Object):
    count = 0

    @dbus.service.method(IFACE, in_signature='susssasa{sv}i', out_signature='u')
    def Notify(self, app, replaces, icon, summary, body, actions, hints, timeout):
        Server.count += 1
        with open(record, 'a', encoding='utf-8') as f:
            f.write(json.dumps({'app': str(app), 'summary': str(summary), 'body': str(body), 'actions': [str(a) for a in actions],
                                'hints': sorted(str(k) for k in hints.keys()), 'timeout': int(timeout)}) + '\n')
        return dbus.UInt32(Server.count)

    @dbus.service.method(IFACE, in_signature='', out_signature='as')
    def GetCapabilities(self):
        return capabilities

    @dbus.service.method(IFACE, in_signature='', out_signature='ssss')
    def GetServerInformation(self):
        return ('checkin-test-notifications', 'checkin', '1', '1.2')

    @dbus.service.method(IFACE, in_signature='u', out_signature='')
    def CloseNotification(self, id):
        pass


dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
bus = dbus.SessionBus()
name = dbus.service.BusName(IFACE, bus, do_not_queue=True)
Server(bus, '/org/freedesktop/Notifications')
loop = GLib.MainLoop()
GLib.timeout_add_seconds(limit, loop.quit)
print(json.dumps({'address': os.environ['DBUS_SESSION_BUS_ADDRESS'], 'pid': os.getpid()}), flush=True)
loop.run()
