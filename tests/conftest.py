"""Shared test set-up: the kernel's toy game is registered for the whole test session, and the tests that
drive a real browser, Node, OpenSpiel or several server processes, and the single tests that take a second
or more, are marked ``slow`` in one place (``make check`` leaves them out; ``make test`` and CI run
everything)."""

from __future__ import annotations

import os
import sys
from typing import Any

import pytest

sys.path.insert(0, os.path.dirname(__file__))

from kernel.toy import ToyGame
from polytable.core import register

register(ToyGame())

SLOW_FILES = (
    "test_openspiel.py",
    "test_pyodide.py",
    "test_multiprocess.py",
    "test_services.py",
    "test_pubsub_outage.py",
)

SLOW_TESTS = frozenset(
    {
        "test_analysis.py::test_analyse_command_writes_the_report",
        "test_analysis.py::test_analyse_from_a_command_file_with_a_grid",
        "test_analysis.py::test_dask_local_cluster_gives_the_local_results",
        "test_balance_api.py::test_balance_check_runs_and_returns_the_figures",
        "test_conformance.py::test_random_playouts",
        "test_engine.py::test_engine_benchmark_reports_every_target_quickly",
        "test_foldris_bots.py::test_hard_plays_legal_moves_solo_and_multiplayer",
        "test_foldris_bots_clean.py::test_hard_trades_shape_for_survival",
        "test_foldris_bots_clean.py::test_perfect_drop_is_the_best_chance_of_a_perfect_game",
        "test_foldris_bots_clean.py::test_survival_matches_a_brute_force",
        "test_foldris_bots_flaws.py::test_multiplayer_endgame_counts_elimination_as_a_loss",
        "test_foldris_bots_flaws.py::test_multiplayer_weights_and_search_are_separate",
        "test_foldris_native.py::test_a_fresh_process_can_ask_who_acts_before_anything_is_sampled",
        "test_foldris_planner.py::test_a_wider_beam_finds_a_perfect_game_greedy_misses",
        "test_foldris_planner.py::test_the_kernel_finds_what_the_python_search_finds[3-0]",
        "test_foldris_planner.py::test_the_kernel_finds_what_the_python_search_finds[4-6]",
        "test_foldris_planner.py::test_the_planner_plays_legal_moves_and_is_seeded",
        "test_forma_bots_bridge.py::test_playouts_pick_a_legal_move_and_replay",
        "test_forma_bridges_native.py::test_bridge_count_matches_on_many_random_colour_sets",
        "test_forma_eval_native.py::test_place_value_and_best_bonus_match_in_more_seeded_games",
        "test_forma_native.py::test_playouts_from_every_phase_agree",
        "test_formfinity_bots.py::test_a_fast_pace_scales_the_samples_and_a_slow_one_changes_nothing",
        "test_formfinity_bots.py::test_the_lines_goal_sees_a_win_with_the_later_elements_of_the_card",
        "test_formfinity_bots_fast.py::test_fast_greedy_picks_one_of_the_greedy_best_placements",
        "test_formfinity_native.py::test_a_short_fuzz_run_agrees",
        "test_formfinity_native.py::test_keeps_a_way_is_the_pure_one_in_race_positions",
        "test_formfinity_playout.py::test_playouts_agree_from_every_phase_over_many_games",
        "test_formfinity_playout.py::test_pure_and_compiled_simulate_print_the_same_games",
        "test_generation.py::test_generator_matches_brute_force",
        "test_generation.py::test_whole_game_traces",
        "test_i18n_server.py::test_coded_engine_errors_read_the_same_from_their_key",
        "test_i18n_server.py::test_every_error_the_rules_raise_has_a_well_formed_code_and_an_english_text",
        "test_i18n_server.py::test_every_offered_game_has_its_spec_in_both_languages",
        "test_i18n_server.py::test_every_shipped_engine_code_has_dutch_and_a_new_games_gaps_are_reported",
        "test_i18n_server.py::test_no_shipped_engine_code_disappears",
        "test_js_unit.py::test_the_client_unit_tests_pass",
        "test_learn.py::test_expert_plays_legal_moves_in_the_arena",
        "test_learn.py::test_tiny_run_writes_its_curve_and_continues",
        "test_learned_values.py::test_tiny_run_through_the_shared_loop[forma]",
        "test_learned_values.py::test_tiny_run_through_the_shared_loop[qwirkle-cubes]",
        "test_ops.py::test_not_ready_when_the_pubsub_server_is_unreachable",
        "test_pettingzoo.py::test_api_and_seed",
        "test_quadefy_ai.py::test_greedy_beats_random",
        "test_quadefy_ai.py::test_solver_agrees_with_minimax_on_endgames",
        "test_quadefy_golden.py::test_golden_greedy_game",
        "test_quadefy_native.py::test_values_and_moves_match_minimax_on_endgames",
        "test_quadefy_rules.py::test_empty_cube_counts",
        "test_quadefy_rules.py::test_legal_placements_match_the_reference",
        "test_quadefy_rules.py::test_loss_when_no_block_fits_and_game_over",
        "test_quadefy_rules.py::test_tunnel_insertion_follows_straight_unit_moves",
        "test_quadefy_solve.py::test_shared_table_keeps_answers_exact",
        "test_quadefy_solve.py::test_solve_command",
        "test_quadefy_solve.py::test_solver_agrees_with_minimax_on_random_endgames",
        "test_quadefy_solve.py::test_time_limit_and_checkpoint_resume",
        "test_quadefy_solver_verdicts.py::test_small_cases_agree_with_the_python_solver",
        "test_quadefy_solver_verdicts.py::test_verdicts_on_fixed_positions",
        "test_qwirkle_eval_native.py::test_the_kernel_values_placements_as_the_python_does[1-2-True]",
        "test_qwirkle_eval_native.py::test_the_kernel_values_placements_as_the_python_does[3-4-False]",
        "test_qwirkle_eval_native.py::test_the_kernel_values_placements_as_the_python_does[4-2-False]",
        "test_qwirkle_hard_bot.py::test_hard_plays_legal_moves_and_replays_from_its_seed",
        "test_qwirkle_hard_bot_rolls.py::test_the_table_agrees_with_walking_every_rolled_hand",
        "test_qwirkle_native.py::test_a_short_fuzz_run_agrees",
        "test_qwirkle_native.py::test_playout_matches_a_match_of_random_bots",
        "test_qwirkle_native.py::test_pure_and_compiled_simulate_print_the_same_games",
        "test_restart.py::test_rooms_resume_exactly_after_sigkill",
        "test_serve_cli.py::test_serve_never_prints_a_database_password",
        "test_serve_cli.py::test_serve_prints_the_address_and_serves_the_app",
        "test_simulate_workers.py::test_cli_json_is_the_same_for_one_two_and_three_workers[forma]",
        "test_simulate_workers.py::test_cli_json_is_the_same_for_one_two_and_three_workers[quadefy]",
        "test_speed_and_search.py::test_hard_and_medium_play_whole_games_and_replay",
        "test_vector_fast.py::test_forma_batch_matches_pure_rules[2-options1-2-500]",
        "test_vector_fast.py::test_forma_batch_matches_pure_rules[3-options2-3-400]",
        "test_vector_fast.py::test_forma_batch_matches_pure_rules[4-options0-1-700]",
    }
)
"""Tests that took a second or more each (``--durations``, two workers on a loaded machine): whole games by
AI players, solver cross-checks, fuzz runs and random playouts, subprocess servers. ``make check`` leaves
them out so its loop stays short; the architecture and new-game tests stay in it on purpose. An entry
names every parametrized case of a test, or one case with its id (``name::test[id]``); a long differential
run marked here keeps a short version of itself in ``make check``."""


NIGHTLY_TESTS = frozenset(
    {
        "test_foldris_native.py::test_100k_random_actions_agree",
        "test_forma_native.py::test_100k_random_actions_agree",
        "test_formfinity_native.py::test_100k_random_actions_agree",
        "test_quadefy_kernel.py::test_100k_random_actions_agree",
        "test_qwirkle_native.py::test_100k_random_actions_agree",
    }
)
"""The 100,000-action differential fuzz runs (a third of the slow set's time): ``make nightly`` runs them,
``make test`` and CI run each game's short fuzz run instead (``test_a_short_fuzz_run_agrees``,
``test_some_random_actions_agree``); ``polytable fuzz GAME`` runs any length by hand."""


def pytest_collection_modifyitems(config: object, items: list[Any]) -> None:
    for item in items:
        name = os.path.basename(str(item.fspath))
        base = f"{name}::{getattr(item, 'originalname', item.name)}"
        if base in NIGHTLY_TESTS:
            item.add_marker(pytest.mark.nightly)
        slow = name.startswith("test_browser") or name in SLOW_FILES
        if slow or base in SLOW_TESTS or f"{name}::{item.name}" in SLOW_TESTS:
            item.add_marker(pytest.mark.slow)
