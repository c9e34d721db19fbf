"""Offscreen export: the right number of frames for a turn at the right pace, dice drawn where the record
left them, captions beside the board and never over it, clocks that run on, the top-down view, and clear
refusals of bad options."""

import json

import numpy as np
import pytest
from replay_fixtures import lines, record_game

from somaliland.cli.main import main
from somaliland.replay.camera import project, projection
from somaliland.replay.export import Frame, board_camera, board_size, clocks
from somaliland.replay.overlay import PANEL_RGB
from somaliland.replay.story import load_story
from somaliland.replay.textures import player_rgb
from somaliland.replay.writers import gif_delays

FPS, HOLD = 20, 0.25  # 5 frames hold each outcome


@pytest.fixture(scope="module")
def record(tmp_path_factory):
    return record_game(tmp_path_factory.mktemp("export") / "game.jsonl")


def expected_frames(record, round_, turn, fps, hold):
    """Count the frames from the record itself: each throw's motion at fps plus the held outcome, and each
    run of seizures (no motion) as one frame plus the hold."""
    count, last_kind = 0, None
    for event in lines(record):
        here = event["round"] == round_ and event["turn"] == turn
        if here and event["kind"] == "throw":
            duration = max(p["times"][-1] for p in event["result"]["paths"])
            count += int(duration * fps + 1e-9) + 1 + round(hold * fps)
        elif here and event["kind"] == "seized" and last_kind != "seized":
            count += 1 + round(hold * fps)
        last_kind = event["kind"]
    return count


def busy_turn(record):
    """Return (round, turn) of the turn with the most throws in round 1."""
    turns = [e["turn"] for e in lines(record) if e["kind"] == "throw" and e["round"] == 1]
    return 1, max(set(turns), key=turns.count)


def test_a_turn_exports_as_a_gif_with_one_frame_per_sample_and_hold(record, tmp_path, capsys):
    import imageio.v3 as iio

    round_, turn = busy_turn(record)
    out = tmp_path / "turn.gif"
    assert main(["replay", str(record), "--round", str(round_), "--turn", str(turn), "-o", str(out),
                 "--fps", str(FPS), "--hold", str(HOLD), "--size", "192x144"]) == 0
    frames = iio.imread(out, index=None)
    want = expected_frames(record, round_, turn, FPS, HOLD)
    assert want > 20
    assert frames.shape == (want, 144, 192, 3)
    assert f"{want} frames" in capsys.readouterr().out
    assert sum(gif_durations(out)) == round(1000 * want / FPS)  # at 20 fps: 50 ms a frame, exactly


def gif_durations(path):
    """Return each frame's delay (ms) as the GIF file says."""
    from PIL import Image

    image, delays = Image.open(path), []
    for k in range(image.n_frames):
        image.seek(k)
        delays.append(image.info["duration"])
    return delays


def test_gif_delays_keep_the_frame_rate_on_the_running_clock():
    # 30 fps: frames start at 0, 3.33, 6.67, 10 cs, rounded: 0, 3, 7, 10 (not 3 cs each, which plays 10% fast)
    assert gif_delays(3, 30) == [3, 4, 3]
    assert sum(gif_delays(300, 30)) == 1000 and set(gif_delays(300, 30)) == {3, 4}
    assert gif_delays(4, 25) == [4, 4, 4, 4]


def test_a_30_fps_gif_plays_at_30_fps(record, tmp_path):
    out = tmp_path / "turn.gif"
    assert main(["replay", str(record), "--round", "1", "--turn", "1", "-o", str(out), "--fps", "30", "--hold",
                 "0.5", "--size", "160x96"]) == 0
    delays = gif_durations(out)
    assert len(delays) > 30 and abs(sum(delays) - 1000 * len(delays) / 30) <= 5


def test_the_video_clock_runs_on_across_steps_and_the_throw_clock_is_the_throws():
    later = Frame(step=5, t=0.5, done=False)
    assert clocks(90, 300, 30, later, "throw", 1.25) == ["video 0:03.00 of 0:10.00   frame 91/300",
                                                          "throw 0.50 of 1.25 s"]
    assert clocks(299, 300, 30, Frame(6, 1.25, True), "throw", 1.25)[1] == "throw 1.25 of 1.25 s: outcome"
    assert clocks(1830, 3600, 30, Frame(9, 0.0, True), "pirates", 0.0) == ["video 1:01.00 of 2:00.00   frame 1831/3600",
                                                                          "pirate raid"]


def test_an_mp4_has_the_same_frames(record, tmp_path):
    import imageio_ffmpeg

    round_, turn = busy_turn(record)
    out = tmp_path / "turn.mp4"
    assert main(["replay", str(record), "--round", str(round_), "--turn", str(turn), "-o", str(out),
                 "--fps", "10", "--hold", "0.2", "--size", "320x240", "--camera", "follow"]) == 0
    frames, _ = imageio_ffmpeg.count_frames_and_secs(str(out))
    assert frames == expected_frames(record, round_, turn, 10, 0.2)


def test_a_png_shows_each_die_in_its_colour_where_the_record_left_it(record, tmp_path):
    import imageio.v3 as iio

    out = tmp_path / "end.png"
    width, height = 960, 720
    assert main(["replay", str(record), "--round", "1", "-o", str(out), "--size", f"{width}x{height}"]) == 0
    image = iio.imread(out)
    story = load_story(record)
    board = story.steps[story.select(1)[-1]].after  # the board at the end of round 1
    camera = board_camera(story, (width, height))
    left, _ = board_size((width, height))
    lens = projection(left / height)
    tops = np.array([[x, y, z + story.die_size / 2] for x, y, z, *_ in board.values()])
    pixels = project(tops, camera.view(), lens, left, height)
    for (name, pose), (col, row) in zip(board.items(), pixels):
        assert colour_near(image, col, row, player_rgb(name.split("-")[0])), f"{name} not seen at {col:.0f},{row:.0f}"
    assert len(board) >= 3
    empty_sea = project(np.array([[0.6, 0.15, 0.0]]), camera.view(), lens, left, height)[0]
    assert not any(colour_near(image, *empty_sea, player_rgb(c)) for c in story.colours)
    # the captions have their own column: the board's corners all lie left of it, and it is the panel's colour
    corners = project(np.array([[x, y, 0.0] for x in (0, story.world.width) for y in (0, story.world.depth)]),
                      camera.view(), lens, left, height)
    assert corners[:, 0].min() >= 0 and corners[:, 0].max() < left and 0 <= corners[:, 1].min() < corners[:, 1].max() < height
    assert (image[height // 2, left + 2:] == PANEL_RGB).mean() > 0.5


def colour_near(image, col, row, rgb, radius=3, tolerance=60.0):
    """Return True if some pixel within `radius` of (col, row) is within `tolerance` of the colour."""
    r, c = int(round(row)), int(round(col))
    window = image[max(r - radius, 0):r + radius + 1, max(c - radius, 0):c + radius + 1].reshape(-1, 3)
    return bool(np.any(np.linalg.norm(window.astype(float) - np.array(rgb), axis=1) < tolerance))


def test_top_down_draws_a_round(record, tmp_path, capsys):
    import imageio.v3 as iio

    out = tmp_path / "round.png"
    assert main(["replay", str(record), "--round", "2", "--top-down", str(out)]) == 0
    image = iio.imread(out)
    assert image.shape[0] > 1000 and image.shape[1] > 800
    assert "round 2 from above" in capsys.readouterr().out


def test_top_down_marks_a_seizure_where_taken_with_its_port_and_draws_no_haul_across_land(record, tmp_path,
                                                                                         monkeypatch):
    import matplotlib.figure

    from somaliland.replay.topdown import RELEASED, SEIZED, draw_round
    from somaliland.rules.events import Seized

    story = load_story(record)
    raids = [(step, m.event) for step in story.steps for m in step.events if isinstance(m.event, Seized)]
    assert raids, "the fixture game should have a seizure"
    round_ = raids[0][0].round
    drawn = {}
    monkeypatch.setattr(matplotlib.figure.Figure, "savefig", lambda fig, *a, **k: drawn.setdefault("fig", fig))
    draw_round(story, round_, tmp_path / "round.png")
    ax = drawn["fig"].axes[0]
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert SEIZED[2] in labels and RELEASED[2] in labels
    texts = {t.get_text() for t in ax.texts}
    ports = {p.name: np.array(p.point) * 100 for p in story.world.pirate_ports}
    for step, event in raids:
        if step.round != round_:
            continue
        assert f"to {event.port}" in texts
        taken = np.array(step.before[event.ship][:2]) * 100
        for line in ax.lines:  # no straight line from where the ship was taken to where it was set down
            xy = line.get_xydata()
            if len(xy) == 2:
                ends = sorted(np.linalg.norm(xy - taken, axis=1))
                assert not (ends[0] < 0.01 and np.linalg.norm(xy[np.argmax(np.linalg.norm(xy - taken, axis=1))]
                                                              - ports[event.port]) < 3.0)


@pytest.mark.parametrize("argv, message", [
    (["-o", "x.avi", "--round", "1"], "the output must end in .gif, .mp4, .png"),
    (["-o", "x.gif", "--round", "1", "--fps", "0"], "--fps must lie in 1..120"),
    (["-o", "x.gif", "--round", "1", "--size", "100x100"], "--size must be WIDTHxHEIGHT, multiples of 16"),
    (["-o", "x.gif", "--round", "1", "--size", "96x96"], "--size must be WIDTHxHEIGHT, multiples of 16 from 160x96"),
    (["--turn", "2", "-o", "x.gif"], "--turn needs --round"),
    (["--top-down", "x.png"], "--top-down draws one round: give --round"),
])
def test_bad_options_are_one_line_errors(record, tmp_path, capsys, argv, message):
    argv = [a if not a.startswith("x.") else str(tmp_path / a) for a in argv]
    assert main(["replay", str(record), *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and len(errors(err)) == 1


def test_a_record_without_paths_still_replays_from_rest_to_rest(record, tmp_path):
    import imageio.v3 as iio

    events = lines(record)
    for event in events:
        if event["kind"] == "throw":
            event["result"].pop("paths")
    bare = tmp_path / "bare.jsonl"
    bare.write_text("".join(json.dumps(e) + "\n" for e in events))
    out = tmp_path / "bare.gif"
    assert main(["replay", str(bare), "--round", "1", "--turn", "1", "-o", str(out), "--fps", "10", "--hold", "0.1",
                 "--size", "160x96"]) == 0
    throws = sum(1 for e in events if e["kind"] == "throw" and e["round"] == 1 and e["turn"] == 1)
    story = load_story(bare)
    assert f"{sum(1 for e in events if e['kind'] == 'throw')} throws without recorded paths" in story.warnings[-1]
    raids = len(story.select(1, 1)) - throws
    assert iio.imread(out, index=None).shape[0] == 2 * (throws + raids)  # one still frame and one held each


def errors(err):
    """Return stderr's lines other than warnings (the map file may change under a running test suite)."""
    return [line for line in err.strip().splitlines() if not line.startswith("somaliland replay: warning:")]


def test_check_re_simulates_each_throw_to_its_recorded_rest(record, tmp_path, capsys):
    assert main(["replay", str(record), "--round", "1", "--check", "-o", str(tmp_path / "x.png")]) == 0
    out = capsys.readouterr().out
    throws = sum(1 for e in lines(record) if e["kind"] == "throw" and e["round"] == 1)
    assert f"Checked {throws} throws by re-simulating: each came to rest where the record says" in out


@pytest.mark.parametrize("fidelity, status", [("full", 0), ("fast", 2)])
def test_check_reads_the_retired_fidelity_of_older_records(record, tmp_path, capsys, fidelity, status):
    """A record made while the physics had a `fidelity` setting re-simulates at "full" (how every roll is simulated
    now); at "fast" (a library of rolls, removed) it cannot, and one line says so."""
    events = lines(record)
    events[0]["physics"]["fidelity"] = fidelity
    older = tmp_path / "older.jsonl"
    older.write_text("".join(json.dumps(e) + "\n" for e in events))
    assert main(["replay", str(older), "--round", "1", "--check", "-o", str(tmp_path / "x.png")]) == status
    if status:
        err = errors(capsys.readouterr().err)
        assert len(err) == 1 and "Traceback" not in err[0], err
        assert f"{older}, line 1: the header's physics.fidelity = 'fast' is not allowed" in err[0]


def check_with_an_edited_hand(record, tmp_path, machine=None):
    """Re-simulate round 1 with its first throw's hand edited (and the header's machine); return its index, event."""
    events = lines(record)
    if machine is not None:
        events[0]["machine"] = machine
    k = next(i for i, e in enumerate(events) if e["kind"] == "throw" and e["round"] == 1)
    events[k]["actual"]["speed"] *= 1.2
    edited = tmp_path / "edited.jsonl"
    edited.write_text("".join(json.dumps(e) + "\n" for e in events))
    assert main(["replay", str(edited), "--round", "1", "--turn", str(events[k]["turn"]), "--check",
                 "-o", str(tmp_path / "x.png")]) == 0
    return k, events[k]


def test_check_names_a_throw_whose_recorded_hand_was_edited(record, tmp_path, capsys):
    k, event = check_with_an_edited_hand(record, tmp_path)
    captured = capsys.readouterr()
    assert f"edited.jsonl, line {k + 1}: re-simulated, {event['ship']} comes to rest" in captured.err
    assert "1 came to rest elsewhere than recorded" in captured.out
    assert "recorded on" not in captured.err  # the same kind of machine: no excuse


def test_check_says_when_a_throw_parts_on_another_kind_of_machine(record, tmp_path, capsys):
    from somaliland.machine import describe, fingerprint

    other = {**fingerprint(), "cpu": "Some Other CPU"}
    check_with_an_edited_hand(record, tmp_path, other)
    assert (f"note: recorded on {describe(other)}, replayed on {describe(fingerprint())}: physics results can "
            f"differ in the last bits between these machines (they differ in cpu)") in capsys.readouterr().err


def test_check_gives_a_record_without_paths_its_paths_back(record, tmp_path):
    import imageio.v3 as iio

    events = lines(record)
    for event in events:
        if event["kind"] == "throw":
            event["result"].pop("paths")
    bare = tmp_path / "bare.jsonl"
    bare.write_text("".join(json.dumps(e) + "\n" for e in events))
    round_, turn = busy_turn(record)
    out = tmp_path / "bare.gif"
    assert main(["replay", str(bare), "--round", str(round_), "--turn", str(turn), "--check", "-o", str(out),
                 "--fps", "10", "--hold", "0.1", "--size", "160x96"]) == 0
    assert iio.imread(out, index=None).shape[0] == expected_frames(record, round_, turn, 10, 0.1)
