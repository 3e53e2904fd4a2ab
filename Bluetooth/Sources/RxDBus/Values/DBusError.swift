/// A D-Bus error: an error reply from a peer (its name and message, as `org.bluez.Error.Failed`), or a
/// failure of the connection itself, named as the D-Bus specification and sd-bus name them.
public struct DBusError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The error's name, `org.freedesktop.DBus.Error.ServiceUnknown` or a service's own.
    public var name: String
    public var message: String

    public init(name: String, message: String = "") {
        self.name = name
        self.message = message
    }

    public var description: String { message.isEmpty ? name : "\(name): \(message)" }

    /// No one owns the destination name.
    public static let serviceUnknown = "org.freedesktop.DBus.Error.ServiceUnknown"
    /// The destination has no object at the path.
    public static let unknownObject = "org.freedesktop.DBus.Error.UnknownObject"
    public static let unknownInterface = "org.freedesktop.DBus.Error.UnknownInterface"
    public static let unknownMethod = "org.freedesktop.DBus.Error.UnknownMethod"
    public static let unknownProperty = "org.freedesktop.DBus.Error.UnknownProperty"
    public static let propertyReadOnly = "org.freedesktop.DBus.Error.PropertyReadOnly"
    public static let invalidArgs = "org.freedesktop.DBus.Error.InvalidArgs"
    /// The reply did not come within the call's timeout.
    public static let noReply = "org.freedesktop.DBus.Error.NoReply"
    /// The connection is closed or could not be made.
    public static let disconnected = "org.freedesktop.DBus.Error.Disconnected"
    public static let failed = "org.freedesktop.DBus.Error.Failed"
    public static let accessDenied = "org.freedesktop.DBus.Error.AccessDenied"
    public static let nameHasNoOwner = "org.freedesktop.DBus.Error.NameHasNoOwner"
    /// A reply whose body does not have the signature the caller expected.
    public static let invalidSignature = "org.freedesktop.DBus.Error.InvalidSignature"

    /// An error reply's body carries its message as the first string argument.
    init(reply: DBusMessage) {
        self.init(name: reply.errorName ?? DBusError.failed, message: reply.body.first?.string ?? "")
    }

    /// This side closed the connection.
    public static let closed = DBusError(name: disconnected, message: "the connection was closed")

    /// A reply that is not what the method documents.
    public static func unexpectedReply(_ what: String) -> DBusError {
        DBusError(name: invalidSignature, message: what)
    }
}
