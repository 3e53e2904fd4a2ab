import Foundation

/// gpsd's JSON reports, as far as the location manager reads them: a TPV ("time-position-velocity")
/// report with a fix becomes a ``Location``; everything else (VERSION, DEVICES, WATCH, SKY, a TPV
/// without a fix) is ignored.
///
/// gpsd writes one JSON object per line (`gpsd_json(5)`). A TPV's `mode` is 0/1 without a fix, 2 for
/// a 2D fix (no altitude) and 3 for a 3D fix. Newer gpsd (3.20+) splits altitude into `altMSL` and
/// `altHAE`; `alt` is the older, deprecated name for the MSL one, so `altMSL` is preferred (Core
/// Location's altitude is above mean sea level too).
public enum GPSDReport {
    /// The location in one line of gpsd output, or `nil` when the line is not a TPV report with a 2D or
    /// 3D fix. `receivedAt` stands in for the timestamp when the report has none (gpsd sends a TPV
    /// before it knows the date, from a GGA sentence alone).
    public static func location(fromLine line: some StringProtocol, receivedAt: Date = Date()) -> Location? {
        guard let data = String(line).data(using: .utf8),
            let report = try? JSONDecoder().decode(TPV.self, from: data),
            report.class == "TPV", let mode = report.mode, mode >= 2,
            let latitude = report.lat, let longitude = report.lon,
            latitude.isFinite, longitude.isFinite, abs(latitude) <= 90, abs(longitude) <= 180
        else { return nil }
        let altitude = mode >= 3 ? (report.altMSL ?? report.alt) : nil
        // gpsd's `eph` is the 95% horizontal error; without it the larger of the two axis errors.
        let horizontal = report.eph ?? [report.epx, report.epy].compactMap { $0 }.max()
        return Location(
            coordinate: LocationCoordinate2D(latitude: latitude, longitude: longitude),
            altitude: altitude ?? 0,
            // An estimate gpsd did not give is unknown (negative), as Core Location writes it; the
            // coordinate itself is still valid, which Core Location says with a zero or positive value,
            // so an unknown horizontal error is 0 rather than -1.
            horizontalAccuracy: horizontal ?? 0,
            verticalAccuracy: altitude == nil ? -1 : (report.epv ?? 0),
            speed: report.speed ?? -1,
            course: report.track ?? -1,
            timestamp: report.time.flatMap(date(from:)) ?? receivedAt)
    }

    /// The command that asks gpsd to stream JSON reports (`?WATCH`), with its line end.
    public static let watchCommand = "?WATCH={\"enable\":true,\"json\":true}\n"

    /// An ISO 8601 time as gpsd writes it, with or without fractional seconds.
    static func date(from text: String) -> Date? {
        if let date = try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)) {
            return date
        }
        return try? Date(text, strategy: Date.ISO8601FormatStyle())
    }

    private struct TPV: Decodable {
        var `class`: String
        var mode: Int?
        var time: String?
        var lat: Double?
        var lon: Double?
        var alt: Double?
        var altMSL: Double?
        var eph: Double?
        var epx: Double?
        var epy: Double?
        var epv: Double?
        var speed: Double?
        var track: Double?
    }
}
