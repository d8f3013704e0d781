#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""sig_source_cupy: analog.sig_source_c / sig_source_f made on the GPU, bit for bit.

The samples come from fixed_point_nco, which replays GNU Radio's fixed-point phase
accumulator and sine table, so swapping this block in for the CPU source changes nothing
downstream. Setters may be called from any thread while the flowgraph runs (GRC callbacks,
the "cmd" message port): a lock keeps each work() call on one set of parameters.
"""

import threading

import numpy as np
import pmt
from gnuradio import analog

from .fixed_point_nco import fixed_point_nco
from .python_blocks import sync_block

_TYPES = {np.dtype(np.complex64): True, np.dtype(np.float32): False}


class sig_source_cupy(sync_block):
    """Signal source on the GPU, the same samples as analog.sig_source_c/f.

    Waveforms are analog.GR_SIN_WAVE, GR_COS_WAVE, GR_CONST_WAVE, GR_SQR_WAVE, GR_TRI_WAVE
    and GR_SAW_WAVE; dtype numpy.complex64 or numpy.float32. The "cmd" message port takes a
    dict with any of "freq", "ampl", "offset" and "phase", as analog's does.
    """

    def __init__(self, sampling_freq=1.0, waveform=analog.GR_COS_WAVE, frequency=1000.0, amplitude=1.0,
                 offset=0.0, phase=0.0, dtype=np.complex64):
        dtype = np.dtype(dtype)
        if dtype not in _TYPES:
            raise ValueError(f"sig_source_cupy makes complex64 or float32 samples, not {dtype}")
        sync_block.__init__(self, "sig_source_cupy", None, [dtype])
        self._complex = _TYPES[dtype]
        self._lock = threading.Lock()
        self._nco = fixed_point_nco(self.xp, sampling_freq, frequency)
        self._waveform = int(waveform)
        self._amplitude = float(amplitude)
        self._offset = offset
        self.set_phase(phase)
        self.message_port_register_in(pmt.intern("cmd"))
        self.set_msg_handler(pmt.intern("cmd"), self._handle_command)

    def work(self, input_items, output_items):
        out = output_items[0]
        with self._lock:
            self._nco.generate(self._waveform, len(out), self._amplitude, self._offset, self._complex, out=out)
        return len(out)

    def _handle_command(self, message):
        commands = {"freq": self.set_frequency, "ampl": self.set_amplitude,
                    "offset": self.set_offset, "phase": self.set_phase}
        if not pmt.is_dict(message):
            self.logger.warn(f"cmd: expected a dict with keys {sorted(commands)}, got {message}")
            return
        for key, value in pmt.to_python(message).items():
            if key in commands:
                commands[key](value)
            else:
                self.logger.warn(f"cmd: unknown key {key!r}; known keys are {sorted(commands)}")

    def set_sampling_freq(self, sampling_freq):
        with self._lock:
            self._nco.set_sampling_freq(sampling_freq)

    def set_frequency(self, frequency):
        with self._lock:
            self._nco.set_frequency(frequency)

    def set_waveform(self, waveform):
        with self._lock:
            self._waveform = int(waveform)

    def set_amplitude(self, amplitude):
        with self._lock:
            self._amplitude = float(amplitude)

    def set_offset(self, offset):
        with self._lock:
            self._offset = offset

    def set_phase(self, phase):
        with self._lock:
            self._nco.set_phase(phase)

    def sampling_freq(self):
        return self._nco.sampling_freq()

    def frequency(self):
        return self._nco.frequency()

    def waveform(self):
        return self._waveform

    def amplitude(self):
        return self._amplitude

    def offset(self):
        return self._offset

    def phase(self):
        return self._nco.get_phase()
