import Foundation

/// What the fixture server knows: EONET v3's thirteen categories as the service describes them, and
/// events written after recorded ones (titles, sources and shapes as EONET sends them), each dated
/// relative to the moment the server starts, so that "the last N days" means the same in every run.
enum FixtureData {
    /// A recorded category: the v3 id, title and description.
    struct Category {
        let id: String
        let title: String
        let description: String
    }

    /// A recorded event: where a date would be, how many days before "now" it was observed (the last of
    /// `observations`, a day apart) and, for a closed event, closed.
    struct Event {
        let id: String
        let title: String
        let categories: [String]
        let source: (id: String, url: String)
        let daysAgo: Int
        let closedDaysAgo: Int?
        let observations: Int
        let description: String?
    }

    static let categories: [Category] = [
        Category(
            id: "drought", title: "Drought",
            description:
                "Long lasting absence of precipitation affecting agriculture and livestock, and the overall availability of food and water."
        ),
        Category(
            id: "dustHaze", title: "Dust and Haze",
            description:
                "Related to dust storms, air pollution and other non-volcanic aerosols. Volcano-related plumes shall be included with the originating eruption event."
        ),
        Category(
            id: "earthquakes", title: "Earthquakes",
            description:
                "Related to all manner of shaking and displacement. Certain aftermath of earthquakes may also be found under landslides and floods."
        ),
        Category(
            id: "floods", title: "Floods",
            description:
                "Related to aspects of actual flooding--e.g., inundation, water extending beyond river and lake extents."
        ),
        Category(
            id: "landslides", title: "Landslides",
            description: "Related to landslides and variations thereof: mudslides, avalanche."),
        Category(
            id: "manmade", title: "Manmade",
            description: "Events that have been human-induced and are extreme in their extent."),
        Category(
            id: "seaLakeIce", title: "Sea and Lake Ice",
            description:
                "Related to all ice that resides on oceans and lakes, including sea and lake ice (permanent and seasonal) and icebergs."
        ),
        Category(
            id: "severeStorms", title: "Severe Storms",
            description:
                "Related to the atmospheric aspect of storms (hurricanes, cyclones, tornadoes, etc.). Results of storms may be included under floods, landslides, etc."
        ),
        Category(
            id: "snow", title: "Snow",
            description:
                "Related to snow events, particularly extreme/anomalous snowfall in either timing or extent/depth."),
        Category(
            id: "tempExtremes", title: "Temperature Extremes",
            description: "Related to anomalous land temperatures, either heat or cold."),
        Category(
            id: "volcanoes", title: "Volcanoes",
            description:
                "Related to both the physical effects of an eruption (rock, ash, lava) and the atmospheric (ash and gas plumes)."
        ),
        Category(
            id: "waterColor", title: "Water Color",
            description:
                "Related to events that alter the appearance of water: phytoplankton, red tide, algae, sediment, whiting, etc."
        ),
        Category(
            id: "wildfires", title: "Wildfires",
            description:
                "Wildland fires includes all nature of fire, in forest and plains, as well as those that spread to become urban and industrial fire events. Fires may be naturally caused or manmade."
        ),
    ]

    private static let irwin = "https://irwin.doi.gov/observer/incidents/"
    private static let pdc = "http://emops.pdc.org/emops/?hazard_id="
    private static let si = "https://volcano.si.edu/volcano.cfm?vn="
    private static let jtwc = "https://www.metoc.navy.mil/jtwc/products/"
    private static let nhc = "https://www.nhc.noaa.gov/archive/2026/"
    private static let natice = "https://usicecenter.gov/pub/Iceberg_Tabular.csv#"
    private static let eo = "https://earthobservatory.nasa.gov/images/"

    /// A wildfire reported by IRWIN (open when `closed` is nil).
    private static func fire(_ number: Int, _ title: String, _ daysAgo: Int, closed: Int? = nil) -> Event {
        Event(
            id: "EONET_\(number)", title: title, categories: ["wildfires"],
            source: ("IRWIN", irwin + "2026-\(number)"), daysAgo: daysAgo, closedDaysAgo: closed, observations: 1,
            description: nil)
    }

    private static func event(
        _ number: Int, _ title: String, _ categories: [String], _ source: (String, String), _ daysAgo: Int,
        closed: Int? = nil, observations: Int = 1, description: String? = nil
    ) -> Event {
        Event(
            id: "EONET_\(number)", title: title, categories: categories, source: source, daysAgo: daysAgo,
            closedDaysAgo: closed, observations: observations, description: description)
    }

    /// The events, newest first within each category. Wildfires are many (the service's biggest
    /// category), drought has none in the last year, two old fires are beyond 360 days (a `days=360`
    /// request leaves them out), and a cyclone is both a storm and a flood.
    static let events: [Event] = [
        fire(24964, "Wildfire SAN FRANCISCO 2, Starr, Texas", 0),
        fire(24958, "Wildfire Picture Rock, Lake, Oregon", 1),
        fire(24951, "Wildfire CATO 2, Chaves, New Mexico", 2),
        fire(24940, "Wildfire Bear Creek, Lemhi, Idaho", 3),
        fire(24931, "Wildfire Pine Ridge, Custer, South Dakota", 5),
        fire(24922, "Wildfire Dry Gulch, Baker, Oregon", 8),
        fire(24910, "Wildfire Cedar Flat, Tehama, California", 12),
        fire(24899, "Wildfire Sage Hen, Elko, Nevada", 18, closed: 10),
        fire(24880, "Wildfire Copper Canyon, Yavapai, Arizona", 30, closed: 25),
        fire(24861, "Wildfire Lost Horse, Missoula, Montana", 44, closed: 38),
        fire(24842, "Wildfire Red Butte, Natrona, Wyoming", 61, closed: 55),
        fire(24820, "Wildfire Eagle Rock, Garfield, Colorado", 80, closed: 72),
        fire(24801, "Wildfire Willow Springs, Kern, California", 97, closed: 90),
        fire(24777, "Wildfire Black Mesa, Navajo, Arizona", 118, closed: 110),
        fire(24750, "Wildfire Goose Lake, Modoc, California", 140, closed: 131),
        fire(24722, "Wildfire Hells Canyon, Wallowa, Oregon", 170, closed: 160),
        fire(24700, "Wildfire Juniper Hills, Los Angeles, California", 199, closed: 190),
        fire(24671, "Wildfire Turkey Ridge, Shasta, California", 230, closed: 221),
        fire(24650, "Wildfire Sand Draw, Fremont, Wyoming", 262, closed: 250),
        fire(24622, "Wildfire Long Valley, Mono, California", 291, closed: 283),
        fire(24600, "Wildfire Mesa Verde, Montezuma, Colorado", 322, closed: 312),
        fire(24581, "Wildfire Ponderosa, Deschutes, Oregon", 351, closed: 345),
        fire(24102, "Wildfire Old Mill, Siskiyou, California", 410, closed: 402),
        fire(24055, "Wildfire Granite Pass, Josephine, Oregon", 455, closed: 450),
        event(
            24962, "Typhoon Choi-wan", ["severeStorms"], ("JTWC", jtwc + "wp2626.tcw"), 0, observations: 6),
        event(24955, "Hurricane Delia", ["severeStorms"], ("NOAA_NHC", nhc + "DELIA.shtml"), 2, observations: 5),
        event(
            24947, "Tropical Cyclone Nuri", ["severeStorms", "floods"], ("JTWC", jtwc + "sh0427.tcw"), 4,
            observations: 4),
        event(24935, "Tropical Storm Kiko", ["severeStorms"], ("NOAA_NHC", nhc + "KIKO.shtml"), 6, observations: 3),
        event(
            24890, "Typhoon Haishen", ["severeStorms"], ("JTWC", jtwc + "wp2326.tcw"), 25, closed: 20,
            observations: 8),
        event(
            24860, "Hurricane Cristobal", ["severeStorms"], ("NOAA_NHC", nhc + "CRISTOBAL.shtml"), 48, closed: 44,
            observations: 7),
        event(
            24815, "Tropical Cyclone Gati", ["severeStorms"], ("JTWC", jtwc + "io0326.tcw"), 88, closed: 85,
            observations: 4),
        event(
            24780, "Tropical Storm Barry", ["severeStorms"], ("NOAA_NHC", nhc + "BARRY.shtml"), 120, closed: 117,
            observations: 3),
        event(
            24731, "Typhoon Mawar", ["severeStorms"], ("JTWC", jtwc + "wp0226.tcw"), 160, closed: 152,
            observations: 9),
        event(
            24690, "Cyclone Freddy", ["severeStorms"], ("JTWC", jtwc + "sh1526.tcw"), 205, closed: 196,
            observations: 10),
        event(
            24640, "Hurricane Otis", ["severeStorms"], ("NOAA_NHC", nhc + "OTIS.shtml"), 270, closed: 266,
            observations: 3),
        event(
            24590, "Tropical Storm Alberto", ["severeStorms"], ("NOAA_NHC", nhc + "ALBERTO.shtml"), 340, closed: 337,
            observations: 2),
        event(24953, "Sabancaya Volcano, Peru", ["volcanoes"], ("SIVolcano", si + "354006"), 1),
        event(24944, "Sakurajima Volcano, Japan", ["volcanoes"], ("SIVolcano", si + "282080"), 3),
        event(24929, "Etna Volcano, Italy", ["volcanoes"], ("SIVolcano", si + "211060"), 7),
        event(24912, "Fuego Volcano, Guatemala", ["volcanoes"], ("SIVolcano", si + "342090"), 11),
        event(24871, "Kilauea Volcano, United States", ["volcanoes"], ("SIVolcano", si + "332010"), 40, closed: 33),
        event(24797, "Semeru Volcano, Indonesia", ["volcanoes"], ("SIVolcano", si + "263300"), 100, closed: 93),
        event(24712, "Reykjanes Volcano, Iceland", ["volcanoes"], ("SIVolcano", si + "371020"), 180, closed: 176),
        event(24630, "Popocatepetl Volcano, Mexico", ["volcanoes"], ("SIVolcano", si + "341090"), 280, closed: 271),
        event(
            24950, "Iceberg A23A", ["seaLakeIce"], ("NATICE", natice + "A23A"), 1, observations: 5,
            description: "Iceberg A23A, drifting north of the Weddell Sea"),
        event(24938, "Iceberg D28", ["seaLakeIce"], ("NATICE", natice + "D28"), 5, observations: 3),
        event(24903, "Iceberg B22A", ["seaLakeIce"], ("NATICE", natice + "B22A"), 14, observations: 2),
        event(24830, "Iceberg C38B", ["seaLakeIce"], ("NATICE", natice + "C38B"), 70, closed: 66),
        event(24760, "Iceberg A81", ["seaLakeIce"], ("NATICE", natice + "A81"), 135, closed: 128),
        event(24660, "Iceberg D30A", ["seaLakeIce"], ("NATICE", natice + "D30A"), 250, closed: 241),
        event(24948, "Flooding in Valencia, Spain", ["floods"], ("PDC", pdc + "178201"), 4),
        event(24870, "Flooding in Houston, Texas", ["floods"], ("PDC", pdc + "176540"), 42, closed: 35),
        event(24740, "Flooding in Bangladesh", ["floods"], ("PDC", pdc + "174002"), 150, closed: 139),
        event(24942, "Earthquake, Noto Peninsula, Japan", ["earthquakes"], ("PDC", pdc + "178150"), 4),
        event(24790, "Earthquake, Herat, Afghanistan", ["earthquakes"], ("PDC", pdc + "175301"), 109, closed: 101),
        event(24939, "Dust Storm over the Taklimakan Desert", ["dustHaze"], ("EO", eo + "152301"), 5),
        event(24850, "Saharan Dust over the Atlantic", ["dustHaze"], ("EO", eo + "151870"), 52, closed: 49),
        event(24934, "Landslide, Wayanad, India", ["landslides"], ("PDC", pdc + "178090"), 6),
        event(
            24866, "Landslide, Enga Province, Papua New Guinea", ["landslides"], ("PDC", pdc + "176802"), 31, closed: 28
        ),
        event(24766, "Landslide, Ischia, Italy", ["landslides"], ("PDC", pdc + "174890"), 130, closed: 125),
        event(24920, "Heat Wave, Sindh, Pakistan", ["tempExtremes"], ("PDC", pdc + "177950"), 9),
        event(24805, "Cold Snap, Inner Mongolia, China", ["tempExtremes"], ("PDC", pdc + "175700"), 95, closed: 90),
        event(24925, "Snowstorm, Hokkaido, Japan", ["snow"], ("PDC", pdc + "178000"), 8, closed: 6),
        event(24915, "Phytoplankton Bloom, Barents Sea", ["waterColor"], ("EO", eo + "152210"), 10),
        event(24838, "Red Tide, Gulf of Mexico", ["waterColor"], ("EO", eo + "151600"), 60, closed: 51),
        event(24908, "Oil Refinery Fire, Texas City", ["manmade"], ("PDC", pdc + "177820"), 13, closed: 11),
    ]
}
