#!/usr/bin/env python3
"""Reference values for the HRV tests (Tests/ResonanceBrainTests/HRVTests.swift).

resonance never runs Python: this script only produces the numbers the Swift tests compare
against, from NeuroKit2 and SciPy, and (with --extract) the real RR series they are computed on.

    python3 -m venv /tmp/nk && /tmp/nk/bin/pip install neurokit2==0.3.0
    /tmp/nk/bin/python scripts/hrv-references.py            # the JSON beside every series
    /tmp/nk/bin/python scripts/hrv-references.py --extract  # first re-extract real-*.txt

For each series Tests/Fixtures/hrv/<name>.txt (one interval in ms per line) it writes

  <name>.neurokit2.json    NeuroKit2 on peaks = [0, cumsum(rr)] at sampling_rate=1000:
                           hrv_time (MeanNN … pNN20), hrv_nonlinear (SD1, SD2) and, for the
                           real series, hrv_frequency with normalize=False (LF, HF in ms²,
                           LFHF) plus NeuroKit2's Welch at resonance's settings as far
                           as they can be set (keys ending _4Hz_64s);
  <name>.scipy-welch.json  resonance's own spectral method reproduced with NumPy/SciPy
                           (docs/hrv.md): the exact check of HRVFrequency;
  <name>.kubios.json       NeuroKit2's Kubios artefact method (Lipponen & Tarvainen 2019,
                           nk.signal_fixpeaks(peaks, method="kubios")) on the same peaks:
                           the beats its detector flags in the series as read, the passes
                           of its iterative correction, and the time-domain metrics of the
                           corrected series, with and without NeuroKit2's rounding of
                           corrected beats to whole samples: the check of KubiosArtefacts.

It first writes artefacts-systole-ecg.txt: real-systole-ecg with one beat of each kind the
Kubios method names put in by hand (a missed beat, an extra one, an ectopic beat, a long
interval), so that every branch of the detector and the correction is checked.

--extract downloads (pip, no dependencies) the two packages the real series ship in and writes
them again; Tests/Fixtures/hrv/SOURCES.md says where each comes from and under what licence.
"""

import argparse
import importlib
import io
import json
import pathlib
import subprocess
import sys
import tarfile
import tempfile
import zipfile

import neurokit2 as nk
import numpy as np
import scipy
import scipy.signal

FIXTURES = pathlib.Path(__file__).resolve().parent.parent / "Tests" / "Fixtures" / "hrv"
LF = (0.04, 0.15)
HF = (0.15, 0.40)


def pip_download(spec, into):
    subprocess.run(
        [sys.executable, "-m", "pip", "download", "--no-deps", "-q", "-d", into, spec],
        check=True,
    )
    return next(pathlib.Path(into).iterdir())


def write_series(name, rr):
    rr = np.asarray(rr, dtype=float)
    lines = [str(int(v)) if float(v).is_integer() else repr(float(v)) for v in rr]
    (FIXTURES / f"real-{name}.txt").write_text("\n".join(lines) + "\n")
    print(f"real-{name}.txt: {len(rr)} intervals, {rr.sum() / 1000:.1f} s")


def extract():
    with tempfile.TemporaryDirectory() as tmp:
        # pyhrv 0.5.0 (BSD-3-Clause): a 5-minute NN series of the MIT-BIH Normal Sinus Rhythm
        # Database (Holter ECG at 128 Hz), as shipped in pyhrv/files/SampleNNISeriesShort.npy.
        wheel = pip_download("pyhrv==0.5.0", f"{tmp}/pyhrv")
        with zipfile.ZipFile(wheel) as z, z.open("pyhrv/files/SampleNNISeriesShort.npy") as f:
            write_series("nsrdb", np.load(f))

        # systole 0.3.1 (GPL-3.0): its sdist ships
        #  - datasets/Task1_ECG.npy, a 25.6-minute ECG at 1000 Hz (Legrand et al. 2020,
        #    Scientific Reports, doi:10.1038/s41598-020-71858-2); R-peaks by NeuroKit2 in
        #    300–600 s, a stretch with no jump over 20% (the first 300 s hold a misdetected
        #    beat): RR = diff(peaks) ms;
        #  - datasets/rr.txt, its RR series of a PPG recording (fractional ms).
        sdist = pip_download("systole==0.3.1", f"{tmp}/systole")
        with tarfile.open(sdist) as t:
            root = "systole-0.3.1/src/systole/datasets"
            ecg = np.load(io.BytesIO(t.extractfile(f"{root}/Task1_ECG.npy").read()))
            rr_csv = t.extractfile(f"{root}/rr.txt").read().decode()
        _, info = nk.ecg_peaks(
            ecg[300_000:600_000], sampling_rate=1000, method="neurokit", correct_artifacts=False
        )
        write_series("systole-ecg", np.diff(info["ECG_R_Peaks"]))
        rr = [float(line.split(",")[1]) for line in rr_csv.splitlines()[1:] if line.strip()]
        write_series("systole-ppg", rr)


def band(freqs, psd, lo_hi):
    where = (freqs >= lo_hi[0]) & (freqs < lo_hi[1])
    return float(np.trapezoid(psd[where], freqs[where]))


def resonance_welch(rr):
    """docs/hrv.md, 'Frequency domain': 4 Hz linear resampling, SciPy Welch, trapezoid."""
    t = np.cumsum(rr) / 1000
    grid = t[0] + np.arange(int(np.floor((t[-1] - t[0]) * 4)) + 1) / 4
    x = np.interp(grid, t, rr)
    f, p = scipy.signal.welch(
        x, fs=4, window="hann", nperseg=256, noverlap=128, nfft=1024, detrend="constant", scaling="density"
    )
    lf, hf = band(f, p, LF), band(f, p, HF)
    return {"LF": lf, "HF": hf, "LFHF": lf / hf}


def neurokit2(rr, frequency):
    peaks = np.concatenate([[0], np.cumsum(rr)])
    out = {}
    time = nk.hrv_time(peaks, sampling_rate=1000)
    nonlinear = nk.hrv_nonlinear(peaks, sampling_rate=1000)
    for key in ["MeanNN", "SDNN", "RMSSD", "SDSD", "pNN50", "pNN20"]:
        out[f"HRV_{key}"] = float(time[f"HRV_{key}"].iloc[0])
    for key in ["SD1", "SD2"]:
        out[f"HRV_{key}"] = float(nonlinear[f"HRV_{key}"].iloc[0])
    if frequency:
        # NeuroKit2's own pipeline (100 Hz interpolation, half-record windows); normalize=False
        # keeps the powers in ms² (the default divides the PSD by its maximum, which leaves
        # LFHF unchanged).
        freq = nk.hrv_frequency(peaks, sampling_rate=1000, normalize=False)
        for key in ["LF", "HF", "LFHF"]:
            out[f"HRV_{key}"] = float(freq[f"HRV_{key}"].iloc[0])
        # NeuroKit2's Welch at resonance's settings (4 Hz linear, 64 s segments): what is left
        # of the difference is NeuroKit2's nfft = 2·nperseg (512, not 1024) and its one mean
        # removal over the whole record instead of per segment.
        t = np.cumsum(rr) / 1000
        x, _, rate = nk.intervals_process(
            rr, intervals_time=t, interpolate=True, interpolation_rate=4, method="linear"
        )
        psd = nk.signal_psd(x, sampling_rate=rate, method="welch", window=64, normalize=False)
        f, p = psd["Frequency"].to_numpy(), psd["Power"].to_numpy()
        lf, hf = band(f, p, LF), band(f, p, HF)
        # Check that claim: SciPy with exactly those two settings gives NeuroKit2's figures.
        f2, p2 = scipy.signal.welch(
            x - x.mean(), fs=4, window="hann", nperseg=256, noverlap=128, nfft=512, detrend=False
        )
        assert np.allclose([band(f2, p2, LF), band(f2, p2, HF)], [lf, hf], rtol=1e-12, atol=0)
        out.update({"HRV_LF_4Hz_64s": lf, "HRV_HF_4Hz_64s": hf, "HRV_LFHF_4Hz_64s": lf / hf})
    out["nk_version"] = nk.__version__
    return out


def artefacts_series():
    """real-systole-ecg (clean: no Kubios flag) with one artefact of each kind put in."""
    rr = [float(v) for v in (FIXTURES / "real-systole-ecg.txt").read_text().split()]
    rr[320] *= 1.4  # a long interval with nothing to make up for it
    rr[250] -= 250  # an ectopic beat: 250 ms early, then the compensatory pause
    rr[251] += 250
    third = round(0.35 * rr[150])  # an extra beat (a T wave taken for an R peak)
    rr[150:151] = [third, rr[150] - third]
    rr[50:52] = [rr[50] + rr[51]]  # a missed beat
    lines = [str(int(v)) if float(v).is_integer() else repr(float(v)) for v in rr]
    (FIXTURES / "artefacts-systole-ecg.txt").write_text("\n".join(lines) + "\n")


KINDS = ["ectopic", "missed", "extra", "longshort"]


def kubios(rr):
    """NeuroKit2's Kubios method on peaks = [0, cumsum(rr)] at 1000 Hz (beat k closes interval
    k - 1 of the file, so beat k is the file's k-th interval counting from 1)."""
    # signal_fixpeaks the module (neurokit2.signal re-exports the function under its name).
    fixpeaks = importlib.import_module("neurokit2.signal.signal_fixpeaks")
    peaks = np.concatenate([[0], np.cumsum(rr)])

    def flags(artefacts):
        return {k: [int(i) for i in artefacts[k]] for k in KINDS}

    def time_domain(clean):
        time = nk.hrv_time(clean, sampling_rate=1000)
        out = {"intervals": int(len(clean) - 1)}
        for key in ["MeanNN", "SDNN", "RMSSD", "pNN50"]:
            out[f"HRV_{key}"] = float(time[f"HRV_{key}"].iloc[0])
        return out

    first, _ = fixpeaks._find_artifacts(peaks, sampling_rate=1000)
    info, clean = nk.signal_fixpeaks(peaks, sampling_rate=1000, method="kubios", iterative=True)

    # The passes signal_fixpeaks applies, by its own private steps in its own loop (it returns
    # only the last pass's flags); the replay must end on the peaks it returned.
    passes, current = [flags(first)], fixpeaks._correct_artifacts(first, peaks)
    while True:
        found, _ = fixpeaks._find_artifacts(current, sampling_rate=1000)
        if sum(len(found[k]) for k in KINDS) >= sum(len(passes[-1][k]) for k in KINDS):
            break
        passes.append(flags(found))
        current = fixpeaks._correct_artifacts(found, current)
    assert np.array_equal(current, clean) and passes[-1] == flags(info)

    # The same with the one step that rounds: _correct_misaligned returns every peak cast to
    # int (whole samples, here whole ms), moved or not. Without that cast the moved beat sits
    # exactly midway between its neighbours and the others keep their fractional ms.
    def misaligned_unrounded(indices, p):
        p = np.asarray(p, dtype=float)
        indices = np.asarray(indices)
        indices = indices[(indices > 1) & (indices < len(p) - 1)]
        moved = p[indices - 1] + (p[indices + 1] - p[indices - 1]) / 2
        return np.sort(np.concatenate((np.delete(p, indices), moved)), kind="mergesort")

    rounding = fixpeaks._correct_misaligned
    fixpeaks._correct_misaligned = misaligned_unrounded
    try:
        info_exact, clean_exact = nk.signal_fixpeaks(
            peaks, sampling_rate=1000, method="kubios", iterative=True
        )
    finally:
        fixpeaks._correct_misaligned = rounding
    return {
        "flags_as_read": flags(first),
        "passes": passes,
        "corrected": time_domain(clean),
        "corrected_unrounded": time_domain(clean_exact),
        "call": (
            "peaks = concatenate([[0], cumsum(rr)]); flags_as_read: signal_fixpeaks's "
            "_find_artifacts(peaks, sampling_rate=1000) (c1=0.13, c2=0.17, alpha=5.2, "
            "window_width=91, medfilt_order=11); passes: the flags each correction pass of "
            "nk.signal_fixpeaks(peaks, sampling_rate=1000, method='kubios', iterative=True) "
            "applied; corrected: nk.hrv_time of the peaks it returns; corrected_unrounded: the "
            "same with _correct_misaligned's cast of the peaks to int left out"
        ),
        "nk_version": nk.__version__,
    }


def write_json(path, values):
    path.write_text(json.dumps(values, indent=1))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--extract", action="store_true", help="re-extract real-*.txt first")
    args = parser.parse_args()
    if args.extract:
        extract()
    artefacts_series()
    for series in sorted(FIXTURES.glob("*.txt")):
        name = series.stem
        rr = np.array([float(v) for v in series.read_text().split()])
        real = name.startswith("real-")
        write_json(FIXTURES / f"{name}.neurokit2.json", neurokit2(rr, frequency=real))
        welch = resonance_welch(rr)
        welch["call"] = (
            "np.interp at 4 Hz of rr placed at cumsum(rr)/1000; scipy.signal.welch(x, fs=4, "
            "window='hann', nperseg=256, noverlap=128, nfft=1024, detrend='constant', "
            "scaling='density'); trapezoid over [lo, hi)"
        )
        welch["scipy_version"] = scipy.__version__
        write_json(FIXTURES / f"{name}.scipy-welch.json", welch)
        write_json(FIXTURES / f"{name}.kubios.json", kubios(rr))
        print(f"{name}: references written")


if __name__ == "__main__":
    main()
