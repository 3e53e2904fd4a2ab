/// A match rule: which signals a subscription receives. The bus daemon filters with it (it is sent
/// with `AddMatch` when the subscription starts and `RemoveMatch` when it ends); RxDBus applies it
/// again to what arrives, since one connection receives what all of its rules match.
public struct DBusMatchRule: Hashable, Sendable, CustomStringConvertible {
    /// The sender, a unique or a well-known name (the daemon matches the name's owner).
    public var sender: String?
    public var path: DBusObjectPath?
    /// The path or any path below it.
    public var pathNamespace: DBusObjectPath?
    public var interface: String?
    public var member: String?
    /// The first argument, if it is a string.
    public var arg0: String?
    /// The first argument, if it is an object path, is this path or below it (for signals that name an
    /// object, as `InterfacesAdded`).
    public var arg0Namespace: String?

    public init(
        sender: String? = nil, path: DBusObjectPath? = nil, pathNamespace: DBusObjectPath? = nil,
        interface: String? = nil, member: String? = nil, arg0: String? = nil
    ) {
        self.sender = sender
        self.path = path
        self.pathNamespace = pathNamespace
        self.interface = interface
        self.member = member
        self.arg0 = arg0
    }

    /// The rule in the daemon's syntax: `type='signal',sender='org.bluez',…`.
    public var description: String {
        var parts = ["type='signal'"]
        if let sender { parts.append("sender='\(sender)'") }
        if let path { parts.append("path='\(path.rawValue)'") }
        if let pathNamespace { parts.append("path_namespace='\(pathNamespace.rawValue)'") }
        if let interface { parts.append("interface='\(interface)'") }
        if let member { parts.append("member='\(member)'") }
        if let arg0 { parts.append("arg0='\(arg0.replacingQuotes())'") }
        if let arg0Namespace { parts.append("arg0namespace='\(arg0Namespace)'") }
        return parts.joined(separator: ",")
    }

    /// Whether a signal matches, given the names `sender` stands for (its unique name and any
    /// well-known names it owns).
    public func matches(_ message: DBusMessage, senderNames: Set<String>) -> Bool {
        guard message.kind == .signal else { return false }
        if let sender, !senderNames.contains(sender) { return false }
        if let path, message.path != path { return false }
        if let pathNamespace, !(message.path?.isWithin(pathNamespace) ?? false) { return false }
        if let interface, message.interface != interface { return false }
        if let member, message.member != member { return false }
        if let arg0 {
            guard case .string(let first)? = message.body.first, first == arg0 else { return false }
        }
        if let arg0Namespace {
            guard let first = message.body.first?.string,
                first == arg0Namespace || first.hasPrefix(arg0Namespace + ".")
            else { return false }
        }
        return true
    }
}

extension String {
    /// Match rule values are quoted with `'`; a quote inside is written `'\''`.
    fileprivate func replacingQuotes() -> String {
        split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''")
    }
}
