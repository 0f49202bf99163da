-- French service names are stored typeset, as the product's French texts are: the
-- typographic apostrophe between two letters ("Services d’extermination"). New and edited
-- names are typeset on write (server/src/domain/service.rs); this brings the stored ones in
-- line, so the prerendered landing pages and the app show the same name.
update services
-- A letter is what is neither space, punctuation nor digit: [[:alpha:]] leaves out accented
-- letters (d'électricien) under some collations.
set name_fr = regexp_replace(name_fr, '([^[:space:][:punct:][:digit:]])''(?=[^[:space:][:punct:][:digit:]])', '\1’', 'g')
where name_fr like '%''%';
