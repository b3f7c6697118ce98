(* Driver for the extracted Coq functions (issue 14, item 7).

   Reads one request per line on stdin and writes one answer per line:
     c e1 s1 e2 s2 ...   ->  rust_coalesceZ [(e1,s1); (e2,s2); ...]
     k n d m             ->  complement1Z n d m
   An answer is the result's modes, "e1 s1 e2 s2 ...".  This file is the
   only hand-written OCaml: it converts machine integers to Coq's binary
   [z] and back (failing on overflow) and Coq's lists to OCaml's. *)

open Extracted

let rec pos_of_int n =
  if n = 1 then XH
  else if n land 1 = 1 then XI (pos_of_int (n lsr 1))
  else XO (pos_of_int (n lsr 1))

let z_of_int n =
  if n = 0 then Z0
  else if n > 0 then Zpos (pos_of_int n)
  else if n = min_int then failwith "z_of_int: min_int"
  else Zneg (pos_of_int (-n))

let limit = max_int / 4

let rec int_of_pos = function
  | XH -> 1
  | XO p -> let v = int_of_pos p in if v > limit then failwith "overflow" else 2 * v
  | XI p -> let v = int_of_pos p in if v > limit then failwith "overflow" else 2 * v + 1

let int_of_z = function Z0 -> 0 | Zpos p -> int_of_pos p | Zneg p -> - int_of_pos p

let rec list_of_coq = function Nil -> [] | Cons (x, r) -> x :: list_of_coq r
let rec coq_of_list = function [] -> Nil | x :: r -> Cons (x, coq_of_list r)

let rec modes_of_ints = function
  | e :: s :: rest -> { zextent = z_of_int e; zstride = z_of_int s } :: modes_of_ints rest
  | [] -> []
  | [ _ ] -> failwith "odd number of integers"

let show modes =
  String.concat " "
    (List.concat_map
       (fun m -> [ string_of_int (int_of_z m.zextent); string_of_int (int_of_z m.zstride) ])
       (list_of_coq modes))

let answer line =
  match String.split_on_char ' ' (String.trim line) with
  | "c" :: ints ->
      show (rust_coalesceZ (coq_of_list (modes_of_ints (List.map int_of_string ints))))
  | [ "k"; n; d; m ] ->
      show (complement1Z (z_of_int (int_of_string n)) (z_of_int (int_of_string d))
              (z_of_int (int_of_string m)))
  | _ -> failwith ("bad request: " ^ line)

let () =
  try
    while true do
      let line = input_line stdin in
      print_string (answer line);
      print_char '\n'
    done
  with End_of_file -> ()
