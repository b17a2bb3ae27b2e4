"""The small test mat MLEM's rules tests play on (data, shared by the tests and the position builder)."""
ALL = [1, 2, 3, 4, "AB"]
SYMBOL = [1, 2, 2, 3, 4, "AB"]


def small_mat(faces=None, ab=None, last=25):
    """A test mat: every space allows every face (AB worth 1) unless `faces`/`ab` say otherwise; moons_a
    (values 1, 3: the farther moon is worth 3) at 6, planet_p at 7, moons_b at 8, planet_q at 9,
    planet_r on every space from 10 to the one before deep space."""
    faces, ab = faces or {}, ab or {}
    bodies = {6: "moons_a", 7: "planet_p", 8: "moons_b", 9: "planet_q"}
    spaces = []
    for i in range(last):
        f = faces.get(i, ALL)
        spaces.append({"faces": f, "ab": ab.get(i, 1) if "AB" in f else 0,
                       "body": bodies.get(i, "planet_r" if i >= 10 else None)})
    spaces.append({"body": "deep_space"})
    return {"spaces": spaces, "moons": [{"name": "moons_a", "values": [1, 3]}, {"name": "moons_b", "values": [4]}],
            "planets": [{"name": "planet_p", "points": [5, 3, 1]}, {"name": "planet_q", "points": [6, 3, 2]},
                        {"name": "planet_r", "points": [7, 3, 1]}],
            "comet": 7, "galaxy": 5, "goals": {"moons_4": 4, "planets_4": 4, "one_planet_3": 4, "galaxy_2": 4}}
