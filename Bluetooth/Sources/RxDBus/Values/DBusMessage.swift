/// A D-Bus message as RxDBus hands it over: its kind, header fields and body.
public struct DBusMessage: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        case methodCall, methodReturn, error, signal
    }

    public var kind: Kind
    /// The sending connection's unique name (`:1.42`), as the bus stamped it; `nil` on messages not yet sent.
    public var sender: String?
    public var destination: String?
    public var path: DBusObjectPath?
    public var interface: String?
    /// The method or signal name.
    public var member: String?
    /// The error name of an error reply (`org.bluez.Error.Failed`).
    public var errorName: String?
    public var body: [DBusValue]

    public init(
        kind: Kind, sender: String? = nil, destination: String? = nil, path: DBusObjectPath? = nil,
        interface: String? = nil, member: String? = nil, errorName: String? = nil, body: [DBusValue] = []
    ) {
        self.kind = kind
        self.sender = sender
        self.destination = destination
        self.path = path
        self.interface = interface
        self.member = member
        self.errorName = errorName
        self.body = body
    }

    /// A method call to `destination`.
    public static func methodCall(
        destination: String?, path: DBusObjectPath, interface: String?, member: String, body: [DBusValue] = []
    ) -> DBusMessage {
        DBusMessage(
            kind: .methodCall, destination: destination, path: path, interface: interface, member: member, body: body)
    }

    /// A signal from the object at `path`.
    public static func signal(
        path: DBusObjectPath, interface: String, member: String, body: [DBusValue] = [], destination: String? = nil
    ) -> DBusMessage {
        DBusMessage(
            kind: .signal, destination: destination, path: path, interface: interface, member: member, body: body)
    }

    /// The body's signature.
    public var signature: String { body.map(\.signature).joined() }
}
