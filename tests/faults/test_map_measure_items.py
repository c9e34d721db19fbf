"""Issue 18 item 12: `map measure` compares variants side by side; a map with no pirate ports prints no "inf cm".

Two or more files are sailed with the same draws of the hands' scatter (common random numbers), so they differ
by the maps more than by luck. A valid map may have no pirate ports at all (R13 then seizes nobody): `map
check`'s summary says so instead of a distance of infinity, and `map measure` and `map show` print no inf or nan.
"""

import json
import re
import subprocess
import sys
from pathlib import Path

from somaliland.cli.main import main

TINY = Path("maps/tiny.toml").read_text(encoding="utf-8")
PORT = '[[pirate_port]]\nname = "Cove"\nat = [20.0, 20.0]\n'
NOT_A_NUMBER = re.compile(r"\b(inf|nan)\b", re.IGNORECASE)


def run(*args):
    return subprocess.run([sys.executable, "-m", "somaliland.cli.main", *args], capture_output=True, text=True)


def no_ports(tmp_path) -> Path:
    """Write maps/tiny.toml without its pirate port (an empty list of them); return its path."""
    assert TINY.count(PORT) == 1, "maps/tiny.toml's pirate port changed: update this test"
    text = TINY.replace(PORT, "").replace('author = "Somaliland project"\n',
                                          'author = "Somaliland project"\npirate_port = []\n')
    path = tmp_path / "no-ports.toml"
    path.write_text(text.replace("#:schema ./map.schema.json\n", ""), encoding="utf-8")
    return path


def test_check_of_a_map_without_pirate_ports_says_there_are_none(tmp_path, capsys):
    path = no_ports(tmp_path)
    assert main(["map", "check", str(path)]) == 0
    assert capsys.readouterr().out.splitlines() == [
        f"{path}: OK", "  Tiny 1.0: 30 x 40 cm, 2 land areas, 0 pirate ports",
        "  route somalia (east passage): 34.0 cm, full value, no pirate ports on this map",
        "  route africa (west passage): 34.0 cm, half value, no pirate ports on this map"]


def test_check_of_a_map_with_a_port_gives_each_route_its_distance(capsys):
    assert main(["map", "check", "maps/tiny.toml"]) == 0
    out = capsys.readouterr().out
    assert "1 pirate port\n" in out and "route somalia (east passage): 34.0 cm, full value, nearest pirate port " \
                                      "5.0 cm away" in out


def test_measure_and_show_of_a_map_without_pirate_ports_print_no_inf_or_nan(tmp_path):
    path = no_ports(tmp_path)
    for args in (("--json",), ()):
        out = run("map", "measure", str(path), "--throws", "4", "--voyages", "2", *args)
        assert out.returncode == 0 and not out.stderr, out.stderr
        assert not NOT_A_NUMBER.search(out.stdout), out.stdout
    svg = tmp_path / "board.svg"
    out = run("map", "show", str(path), "-o", str(svg))
    assert out.returncode == 0 and out.stdout == f"wrote {svg}\n" and not out.stderr, out.stderr
    assert not NOT_A_NUMBER.search(svg.read_text(encoding="utf-8"))


def test_measure_compares_maps_with_the_same_draws(tmp_path):
    """Two files: each sailed with the same draws of the hands' scatter (common random numbers), so a variant
    that only moves the pirate port (which no voyage of the survey meets) measures the same, leg by leg."""
    variant = tmp_path / "tiny-port-moved.toml"
    variant.write_text(TINY.replace("at = [20.0, 20.0]", "at = [21.0, 20.0]"))
    out = run("map", "measure", "maps/tiny.toml", str(variant), "--throws", "4", "--voyages", "2", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["same_luck"] and len(data["maps"]) == 2 and data["maps"][0]["sha256"] != data["maps"][1]["sha256"]
    assert data["maps"][0]["legs"] == data["maps"][1]["legs"]
    text = run("map", "measure", "maps/tiny.toml", str(variant), "--throws", "4", "--voyages", "2")
    assert text.returncode == 0 and "the same" in text.stdout
    assert "Compared with maps/tiny.toml, leg by leg" in text.stdout
