/// A mouse event: which button did what, and where (in cells, from 0 at the top left).
///
/// Terminals report the mouse only when asked to (`ESC [ ? 1000 h` for presses, releases and the
/// wheel; `ESC [ ? 1006 h` for the SGR encoding, which has no 223-column limit and says which button
/// was released). The ``KeyDecoder`` turns `ESC [ < b ; x ; y M` (press) and `… m` (release) into one.
public struct MouseEvent: Hashable, Sendable {
    /// What happened.
    public enum Action: Hashable, Sendable {
        /// A button went down.
        case press
        /// A button went up.
        case release
        /// The wheel turned one notch up (away from the user).
        case scrollUp
        /// The wheel turned one notch down.
        case scrollDown
    }

    /// Which button: 0 left, 1 middle, 2 right (0 for the wheel).
    public var button: Int
    /// What happened.
    public var action: Action
    /// The cell under the pointer.
    public var location: Point

    /// Creates a mouse event.
    public init(button: Int = 0, action: Action, location: Point) {
        self.button = button
        self.action = action
        self.location = location
    }

    /// A left click (the press; the release that follows is a separate event) at `column`, `row`.
    public static func click(column: Int, row: Int) -> MouseEvent {
        MouseEvent(action: .press, location: Point(column: column, row: row))
    }

    /// The event of an SGR report: `parameters` is `<b;x;y` (1-based x, y), `released` whether it ended
    /// with `m`. Motion reports (bit 32) and buttons beyond the wheel are not events of this kit.
    static func sgr(parameters: String, released: Bool) -> MouseEvent? {
        guard parameters.first == "<" else { return nil }
        let numbers = parameters.dropFirst().split(separator: ";").compactMap { Int($0) }
        guard numbers.count == 3, numbers[1] >= 1, numbers[2] >= 1 else { return nil }
        let code = numbers[0]
        let location = Point(column: numbers[1] - 1, row: numbers[2] - 1)
        guard code & 32 == 0 else { return nil }  // motion while a button is held
        if code & 64 != 0 {
            switch code & 3 {
            case 0: return MouseEvent(action: .scrollUp, location: location)
            case 1: return MouseEvent(action: .scrollDown, location: location)
            default: return nil  // horizontal wheels
            }
        }
        return MouseEvent(button: code & 3, action: released ? .release : .press, location: location)
    }
}
