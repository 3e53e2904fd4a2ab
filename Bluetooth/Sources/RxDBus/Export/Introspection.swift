/// The `Introspect` answer: the interfaces of an object and the names of its children, in the D-Bus
/// specification's XML format.
enum Introspection {
    static func xml(for object: DBusExportedObject?, at path: DBusObjectPath, children: [DBusObjectPath]) -> String {
        var lines = [
            #"<!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN""#,
            #" "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">"#, "<node>",
        ]
        for standard in [DBusStandard.introspectable, DBusStandard.peer, DBusStandard.properties] {
            lines.append(#"  <interface name="\#(standard)"/>"#)
        }
        for interface in (object?.interfaces.values.sorted { $0.name < $1.name }) ?? [] {
            lines.append(#"  <interface name="\#(interface.name)">"#)
            for (name, method) in interface.methods.sorted(by: { $0.key < $1.key }) {
                lines.append(#"    <method name="\#(name)">"#)
                for type in completeTypes(method.inSignature) {
                    lines.append(#"      <arg type="\#(type)" direction="in"/>"#)
                }
                for type in completeTypes(method.outSignature) {
                    lines.append(#"      <arg type="\#(type)" direction="out"/>"#)
                }
                lines.append("    </method>")
            }
            for (name, signature) in interface.signals.sorted(by: { $0.key < $1.key }) {
                lines.append(#"    <signal name="\#(name)">"#)
                for type in completeTypes(signature) { lines.append(#"      <arg type="\#(type)"/>"#) }
                lines.append("    </signal>")
            }
            for (name, value) in interface.properties.sorted(by: { $0.key < $1.key }) {
                let access = interface.writable.contains(name) ? "readwrite" : "read"
                lines.append(#"    <property name="\#(name)" type="\#(value.signature)" access="\#(access)"/>"#)
            }
            lines.append("  </interface>")
        }
        var names = Set<String>()
        for child in children {
            // The first element below `path`.
            let rest =
                path.rawValue == "/" ? child.rawValue.dropFirst() : child.rawValue.dropFirst(path.rawValue.count + 1)
            if let first = rest.split(separator: "/").first { names.insert(String(first)) }
        }
        for name in names.sorted() { lines.append(#"  <node name="\#(name)"/>"#) }
        lines.append("</node>")
        return lines.joined(separator: "\n")
    }

    /// Splits a signature into its single complete types.
    static func completeTypes(_ signature: String) -> [String] {
        var types: [String] = []
        var current = ""
        var depth = 0
        for c in signature {
            current.append(c)
            switch c {
            case "(", "{": depth += 1
            case ")", "}": depth -= 1
            default: break
            }
            if depth == 0 && c != "a" {
                types.append(current)
                current = ""
            }
        }
        return types
    }
}
